//go:build cgo && vulkan

// vk.h: the small C interface of the Vulkan executor (vk.c). A context is
// one instance, one physical device of the asked type and one logical
// device with a compute queue; a job is one module's pipeline with its two
// storage buffers (set 0: binding 0 decisions, binding 1 trace) and a
// command buffer that dispatches one workgroup per walk.
#ifndef CFGFUZZ_VK_H
#define CFGFUZZ_VK_H

#include <stddef.h>
#include <stdint.h>

// Device types for vkx_open.
enum { VKX_CPU = 0, VKX_GPU = 1, VKX_ANY = 2 };

// Result codes besides VkResult values: a failure outside a Vulkan call.
enum { VKX_ERR_NODEVICE = -100001, VKX_ERR_NOMEMTYPE = -100002, VKX_ERR_TOOBIG = -100003 };

typedef struct vkx_ctx vkx_ctx;
typedef struct vkx_job vkx_job;

// vkx_info describes the chosen device.
typedef struct {
	char name[256];
	int type;             // VkPhysicalDeviceType
	uint32_t api_version; // VK_MAKE_API_VERSION encoding
	uint32_t driver_version;
	uint32_t vendor_id;
	uint32_t max_groups_x; // maxComputeWorkGroupCount[0]
	char driver[512];      // "driverName driverInfo" (VkPhysicalDeviceDriverProperties), "" before Vulkan 1.2
} vkx_info;

// Times come in pairs: [0] wall clock, [1] the process's CPU time (all
// threads: on lavapipe the compile and the invocations run in-process).
// Every function returns 0 or a VkResult / VKX_ERR_* code, and on failure
// writes the failing call's name into err (errlen bytes).
int vkx_open(int want, vkx_ctx **out, vkx_info *info, char *err, int errlen);
int vkx_job_new(vkx_ctx *c, const uint32_t *code, size_t code_bytes, const uint32_t *dec, size_t dec_words,
		size_t trace_words, uint32_t groups, vkx_job **out, uint64_t pipeline_ns[2], char *err, int errlen);
int vkx_job_run(vkx_job *j, uint64_t timeout_ns, uint64_t ns[2], char *err, int errlen);
void vkx_job_read(vkx_job *j, uint32_t *trace, size_t trace_words);
void vkx_job_free(vkx_job *j);

#endif
