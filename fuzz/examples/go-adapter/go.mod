module example.com/cfgfuzz-go-adapter

go 1.26.0

require github.com/cfgfuzz/cfgfuzz v0.0.0

replace github.com/cfgfuzz/cfgfuzz => ../../..
