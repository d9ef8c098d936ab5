// SPDX-License-Identifier: Apache-2.0
// A library that subscribes to CUPTI, loaded by the probe with dlopen(RTLD_LOCAL), as Python
// loads PyTorch's extension module: its libcupti is in its own scope, not the global one.
extern "C" int cuptiSubscribe(void** subscriber, void* callback, void* userdata);

extern "C" __attribute__((visibility("default"))) int subscribe_from_module() {
  void* subscriber = nullptr;
  return cuptiSubscribe(&subscriber, nullptr, nullptr);
}
