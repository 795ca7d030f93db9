//go:build cgo && vulkan

// vk.c: the Vulkan side of the executor, in plain C against the loader
// (about 250 lines): instance -> physical device of the asked type ->
// compute queue -> host-visible coherent buffers -> descriptor set ->
// compute pipeline from SPIR-V words -> dispatch -> fence -> read back.
// The Go side (vulkan.go) serializes calls: one job at a time per context.
#include "vk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

struct vkx_ctx {
	VkInstance inst;
	VkPhysicalDevice phys;
	VkDevice dev;
	VkQueue queue;
	uint32_t qfam;
	VkPhysicalDeviceMemoryProperties mem;
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkCommandPool pool;
	uint32_t max_groups;
};

struct vkx_job {
	vkx_ctx *c;
	VkShaderModule shader;
	VkPipeline pipe;
	VkBuffer buf[2];
	VkDeviceMemory mem[2];
	void *map[2];
	VkDeviceSize size[2];
	VkDescriptorPool dpool;
	VkCommandBuffer cmd;
	VkFence fence;
};

static int fail(char *err, int errlen, const char *op, int r) {
	snprintf(err, (size_t)errlen, "%s", op);
	return r;
}

static uint64_t clock_ns(clockid_t id) {
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// stamp reads the wall clock and the process's CPU clock.
static void stamp(uint64_t t[2]) {
	t[0] = clock_ns(CLOCK_MONOTONIC);
	t[1] = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

static void since(const uint64_t t0[2], uint64_t out[2]) {
	uint64_t t1[2];
	stamp(t1);
	out[0] = t1[0] - t0[0];
	out[1] = t1[1] - t0[1];
}

static int type_matches(int want, VkPhysicalDeviceType t) {
	int gpu = t == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || t == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
		  t == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
	if (want == VKX_CPU) return t == VK_PHYSICAL_DEVICE_TYPE_CPU;
	if (want == VKX_GPU) return gpu;
	return 1;
}

static int compute_family(VkPhysicalDevice p, uint32_t *fam) {
	uint32_t n = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(p, &n, NULL);
	VkQueueFamilyProperties props[32];
	if (n > 32) n = 32;
	vkGetPhysicalDeviceQueueFamilyProperties(p, &n, props);
	for (uint32_t i = 0; i < n; i++) {
		if (props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
			*fam = i;
			return 1;
		}
	}
	return 0;
}

// pick chooses a device of the wanted type with a compute queue and Vulkan
// 1.1 or later; VKX_ANY prefers a GPU over the CPU device.
static int pick(vkx_ctx *c, int want, vkx_info *info) {
	uint32_t n = 0;
	if (vkEnumeratePhysicalDevices(c->inst, &n, NULL) != VK_SUCCESS || n == 0) return 0;
	VkPhysicalDevice devs[16];
	if (n > 16) n = 16;
	vkEnumeratePhysicalDevices(c->inst, &n, devs);
	int passes = want == VKX_ANY ? 2 : 1;
	for (int pass = 0; pass < passes; pass++) {
		int w = want == VKX_ANY ? (pass == 0 ? VKX_GPU : VKX_CPU) : want;
		for (uint32_t i = 0; i < n; i++) {
			VkPhysicalDeviceProperties pr;
			vkGetPhysicalDeviceProperties(devs[i], &pr);
			uint32_t fam;
			if (!type_matches(w, pr.deviceType) || pr.apiVersion < VK_API_VERSION_1_1 || !compute_family(devs[i], &fam))
				continue;
			c->phys = devs[i];
			c->qfam = fam;
			c->max_groups = pr.limits.maxComputeWorkGroupCount[0];
			snprintf(info->name, sizeof info->name, "%s", pr.deviceName);
			info->type = pr.deviceType;
			info->api_version = pr.apiVersion;
			info->driver_version = pr.driverVersion;
			info->vendor_id = pr.vendorID;
			info->max_groups_x = c->max_groups;
			info->driver[0] = 0;
			if (pr.apiVersion >= VK_API_VERSION_1_2) {
				VkPhysicalDeviceDriverProperties dp = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
				VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
				p2.pNext = &dp;
				vkGetPhysicalDeviceProperties2(devs[i], &p2);
				snprintf(info->driver, sizeof info->driver, "%s %s", dp.driverName, dp.driverInfo);
			}
			return 1;
		}
	}
	return 0;
}

static int make_device(vkx_ctx *c, char *err, int errlen) {
	float prio = 1.0f;
	VkDeviceQueueCreateInfo q = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
	q.queueFamilyIndex = c->qfam;
	q.queueCount = 1;
	q.pQueuePriorities = &prio;
	VkDeviceCreateInfo di = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
	di.queueCreateInfoCount = 1;
	di.pQueueCreateInfos = &q;
	int r = vkCreateDevice(c->phys, &di, NULL, &c->dev);
	if (r) return fail(err, errlen, "vkCreateDevice", r);
	vkGetDeviceQueue(c->dev, c->qfam, 0, &c->queue);
	vkGetPhysicalDeviceMemoryProperties(c->phys, &c->mem);
	return 0;
}

// make_layouts builds what every job shares: the descriptor set layout of
// two storage buffers, the pipeline layout and the command pool.
static int make_layouts(vkx_ctx *c, char *err, int errlen) {
	VkDescriptorSetLayoutBinding b[2];
	memset(b, 0, sizeof b);
	for (int i = 0; i < 2; i++) {
		b[i].binding = (uint32_t)i;
		b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		b[i].descriptorCount = 1;
		b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
	}
	VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	li.bindingCount = 2;
	li.pBindings = b;
	int r = vkCreateDescriptorSetLayout(c->dev, &li, NULL, &c->dsl);
	if (r) return fail(err, errlen, "vkCreateDescriptorSetLayout", r);
	VkPipelineLayoutCreateInfo pi = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	pi.setLayoutCount = 1;
	pi.pSetLayouts = &c->dsl;
	r = vkCreatePipelineLayout(c->dev, &pi, NULL, &c->layout);
	if (r) return fail(err, errlen, "vkCreatePipelineLayout", r);
	VkCommandPoolCreateInfo ci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	ci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	ci.queueFamilyIndex = c->qfam;
	r = vkCreateCommandPool(c->dev, &ci, NULL, &c->pool);
	if (r) return fail(err, errlen, "vkCreateCommandPool", r);
	return 0;
}

int vkx_open(int want, vkx_ctx **out, vkx_info *info, char *err, int errlen) {
	vkx_ctx *c = calloc(1, sizeof *c);
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "cfgfuzz";
	app.apiVersion = VK_API_VERSION_1_1;
	VkInstanceCreateInfo ii = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	ii.pApplicationInfo = &app;
	int r = vkCreateInstance(&ii, NULL, &c->inst);
	if (r) {
		free(c);
		return fail(err, errlen, "vkCreateInstance", r);
	}
	if (!pick(c, want, info)) {
		vkDestroyInstance(c->inst, NULL);
		free(c);
		return fail(err, errlen, "vkEnumeratePhysicalDevices", VKX_ERR_NODEVICE);
	}
	if ((r = make_device(c, err, errlen)) || (r = make_layouts(c, err, errlen))) return r; // leaks c: a broken loader
	*out = c;
	return 0;
}

static int mem_type(vkx_ctx *c, uint32_t bits) {
	VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	for (uint32_t i = 0; i < c->mem.memoryTypeCount; i++)
		if ((bits & (1u << i)) && (c->mem.memoryTypes[i].propertyFlags & want) == want) return (int)i;
	return -1;
}

static int make_buffer(vkx_job *j, int k, size_t words, char *err, int errlen) {
	vkx_ctx *c = j->c;
	j->size[k] = (VkDeviceSize)(words ? words : 1) * 4;
	VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	bi.size = j->size[k];
	bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
	bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
	int r = vkCreateBuffer(c->dev, &bi, NULL, &j->buf[k]);
	if (r) return fail(err, errlen, "vkCreateBuffer", r);
	VkMemoryRequirements mr;
	vkGetBufferMemoryRequirements(c->dev, j->buf[k], &mr);
	int t = mem_type(c, mr.memoryTypeBits);
	if (t < 0) return fail(err, errlen, "no host-visible coherent memory type", VKX_ERR_NOMEMTYPE);
	VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
	ai.allocationSize = mr.size;
	ai.memoryTypeIndex = (uint32_t)t;
	if ((r = vkAllocateMemory(c->dev, &ai, NULL, &j->mem[k]))) return fail(err, errlen, "vkAllocateMemory", r);
	if ((r = vkBindBufferMemory(c->dev, j->buf[k], j->mem[k], 0))) return fail(err, errlen, "vkBindBufferMemory", r);
	if ((r = vkMapMemory(c->dev, j->mem[k], 0, VK_WHOLE_SIZE, 0, &j->map[k]))) return fail(err, errlen, "vkMapMemory", r);
	memset(j->map[k], 0, (size_t)j->size[k]);
	return 0;
}

static int make_pipeline(vkx_job *j, const uint32_t *code, size_t bytes, uint64_t ns[2], char *err, int errlen) {
	vkx_ctx *c = j->c;
	VkShaderModuleCreateInfo si = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	si.codeSize = bytes;
	si.pCode = code;
	uint64_t t0[2];
	stamp(t0);
	int r = vkCreateShaderModule(c->dev, &si, NULL, &j->shader);
	if (r) return fail(err, errlen, "vkCreateShaderModule", r);
	VkComputePipelineCreateInfo pi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	pi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
	pi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	pi.stage.module = j->shader;
	pi.stage.pName = "main";
	pi.layout = c->layout;
	r = vkCreateComputePipelines(c->dev, VK_NULL_HANDLE, 1, &pi, NULL, &j->pipe);
	since(t0, ns);
	if (r) return fail(err, errlen, "vkCreateComputePipelines", r);
	return 0;
}

static int make_descriptors(vkx_job *j, VkDescriptorSet *set, char *err, int errlen) {
	vkx_ctx *c = j->c;
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
	VkDescriptorPoolCreateInfo pi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	pi.maxSets = 1;
	pi.poolSizeCount = 1;
	pi.pPoolSizes = &ps;
	int r = vkCreateDescriptorPool(c->dev, &pi, NULL, &j->dpool);
	if (r) return fail(err, errlen, "vkCreateDescriptorPool", r);
	VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	ai.descriptorPool = j->dpool;
	ai.descriptorSetCount = 1;
	ai.pSetLayouts = &c->dsl;
	if ((r = vkAllocateDescriptorSets(c->dev, &ai, set))) return fail(err, errlen, "vkAllocateDescriptorSets", r);
	VkDescriptorBufferInfo bi[2];
	VkWriteDescriptorSet w[2];
	memset(w, 0, sizeof w);
	for (int k = 0; k < 2; k++) {
		bi[k].buffer = j->buf[k];
		bi[k].offset = 0;
		bi[k].range = VK_WHOLE_SIZE;
		w[k].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
		w[k].dstSet = *set;
		w[k].dstBinding = (uint32_t)k;
		w[k].descriptorCount = 1;
		w[k].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		w[k].pBufferInfo = &bi[k];
	}
	vkUpdateDescriptorSets(c->dev, 2, w, 0, NULL);
	return 0;
}

// record writes the command buffer: bind, dispatch one workgroup per walk,
// then make the shader's writes visible to the host.
static int record(vkx_job *j, VkDescriptorSet set, uint32_t groups, char *err, int errlen) {
	vkx_ctx *c = j->c;
	VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	ai.commandPool = c->pool;
	ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	ai.commandBufferCount = 1;
	int r = vkAllocateCommandBuffers(c->dev, &ai, &j->cmd);
	if (r) return fail(err, errlen, "vkAllocateCommandBuffers", r);
	VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	if ((r = vkBeginCommandBuffer(j->cmd, &bi))) return fail(err, errlen, "vkBeginCommandBuffer", r);
	vkCmdBindPipeline(j->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, j->pipe);
	vkCmdBindDescriptorSets(j->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &set, 0, NULL);
	vkCmdDispatch(j->cmd, groups, 1, 1);
	VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
	mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(j->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
			     NULL);
	if ((r = vkEndCommandBuffer(j->cmd))) return fail(err, errlen, "vkEndCommandBuffer", r);
	VkFenceCreateInfo fi = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	if ((r = vkCreateFence(c->dev, &fi, NULL, &j->fence))) return fail(err, errlen, "vkCreateFence", r);
	return 0;
}

int vkx_job_new(vkx_ctx *c, const uint32_t *code, size_t code_bytes, const uint32_t *dec, size_t dec_words,
		size_t trace_words, uint32_t groups, vkx_job **out, uint64_t pipeline_ns[2], char *err, int errlen) {
	*out = NULL;
	if (groups == 0 || groups > c->max_groups) return fail(err, errlen, "walks exceed maxComputeWorkGroupCount", VKX_ERR_TOOBIG);
	vkx_job *j = calloc(1, sizeof *j);
	j->c = c;
	VkDescriptorSet set;
	int r;
	if ((r = make_pipeline(j, code, code_bytes, pipeline_ns, err, errlen)) || (r = make_buffer(j, 0, dec_words, err, errlen)) ||
	    (r = make_buffer(j, 1, trace_words, err, errlen)) || (r = make_descriptors(j, &set, err, errlen)) ||
	    (r = record(j, set, groups, err, errlen))) {
		vkx_job_free(j);
		return r;
	}
	memcpy(j->map[0], dec, dec_words * 4);
	*out = j;
	return 0;
}

int vkx_job_run(vkx_job *j, uint64_t timeout_ns, uint64_t ns[2], char *err, int errlen) {
	vkx_ctx *c = j->c;
	memset(j->map[1], 0, (size_t)j->size[1]);
	int r = vkResetFences(c->dev, 1, &j->fence);
	if (r) return fail(err, errlen, "vkResetFences", r);
	VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &j->cmd;
	uint64_t t0[2];
	stamp(t0);
	if ((r = vkQueueSubmit(c->queue, 1, &si, j->fence))) return fail(err, errlen, "vkQueueSubmit", r);
	r = vkWaitForFences(c->dev, 1, &j->fence, VK_TRUE, timeout_ns);
	since(t0, ns);
	if (r) return fail(err, errlen, "vkWaitForFences", r);
	return 0;
}

void vkx_job_read(vkx_job *j, uint32_t *trace, size_t trace_words) { memcpy(trace, j->map[1], trace_words * 4); }

void vkx_job_free(vkx_job *j) {
	if (!j) return;
	VkDevice d = j->c->dev;
	if (j->fence) vkDestroyFence(d, j->fence, NULL);
	if (j->cmd) vkFreeCommandBuffers(d, j->c->pool, 1, &j->cmd);
	if (j->dpool) vkDestroyDescriptorPool(d, j->dpool, NULL);
	for (int k = 0; k < 2; k++) {
		if (j->mem[k]) vkFreeMemory(d, j->mem[k], NULL); // unmaps
		if (j->buf[k]) vkDestroyBuffer(d, j->buf[k], NULL);
	}
	if (j->pipe) vkDestroyPipeline(d, j->pipe, NULL);
	if (j->shader) vkDestroyShaderModule(d, j->shader, NULL);
	free(j);
}
