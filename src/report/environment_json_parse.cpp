// SPDX-License-Identifier: Apache-2.0
#include "report/environment_json_parse.hpp"

#include <string>

#include "io/json_text.hpp"
#include "report/cuda_version.hpp"

namespace kerntime::report {
namespace {

// "driver_version": "13.0" is for people, "driver_version_raw": 13000 for programs; either
// may be given, and when both are they must agree.
int cuda_version(const JsonReader& reader, const Json& env, const std::string& key) {
  const std::string raw_key = key + "_raw";
  int version = 0;
  const Json* raw = member(env, raw_key.c_str());
  if (raw != nullptr) version = reader.int_value(*raw, "environment." + raw_key, 0);
  if (const Json* text = member(env, key.c_str())) {
    const std::string path = "environment." + key;
    const std::string value = reader.string(*text, path);
    const auto parsed = parse_cuda_version(value);
    if (!parsed) {
      reader.fail(path, "expected a CUDA version like \"13.0\", got " + io::json_string(value));
    }
    if (raw == nullptr) return *parsed;
    if (*parsed != version - version % 10) {
      reader.fail(path, io::json_string(value) + " disagrees with " + raw_key + " " +
                            std::to_string(version));
    }
  }
  return version;
}

DeviceInfo device(const JsonReader& reader, const Json& value, const std::string& path) {
  reader.object(value, path);
  DeviceInfo d;
  const auto text = [&](const char* key, std::string& field) {
    if (const Json* v = member(value, key)) field = reader.string(*v, path + "." + key);
  };
  const auto number = [&](const char* key, int& field, int low) {
    if (const Json* v = member(value, key)) field = reader.int_value(*v, path + "." + key, low);
  };
  const auto bytes = [&](const char* key, std::size_t& field) {
    if (const Json* v = member(value, key)) field = reader.byte_count(*v, path + "." + key);
  };
  number("index", d.index, -1);
  text("name", d.name);
  number("compute_capability_major", d.compute_capability_major, 0);
  number("compute_capability_minor", d.compute_capability_minor, 0);
  number("multiprocessor_count", d.multiprocessor_count, 0);
  bytes("total_memory_bytes", d.total_memory_bytes);
  bytes("l2_cache_bytes", d.l2_cache_bytes);
  number("sm_clock_khz", d.sm_clock_khz, 0);
  number("memory_clock_khz", d.memory_clock_khz, 0);
  number("memory_bus_width_bits", d.memory_bus_width_bits, 0);
  if (const Json* v = member(value, "ecc_enabled")) {
    d.ecc_enabled = reader.boolean(*v, path + ".ecc_enabled");
  }
  text("pci_bus_id", d.pci_bus_id);
  return d;
}

}  // namespace

void read_environment(const JsonReader& reader, const Json& env, Environment& out) {
  reader.object(env, "environment");
  if (const Json* host = member(env, "host")) {
    out.host_name = reader.string(*host, "environment.host");
  }
  out.driver_version = cuda_version(reader, env, "driver_version");
  out.runtime_version = cuda_version(reader, env, "runtime_version");
  if (const Json* devices = member(env, "devices")) {
    reader.array(*devices, "environment.devices");
    for (std::size_t i = 0; i < devices->size(); ++i) {
      out.devices.push_back(device(reader, (*devices)[i], index_path("environment.devices", i)));
    }
  }
}

}  // namespace kerntime::report
