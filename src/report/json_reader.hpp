// SPDX-License-Identifier: Apache-2.0
// The checks every part of the kerntime-report/1 reader shares: each names the source, the
// JSON path and why a value is rejected, so a hand-edited file fails with a message that
// points at the mistake.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>

#include "io/json_text.hpp"

namespace kerntime::report {

using Json = nlohmann::json;

// How a wrong value appears in a message: scalars as JSON text, containers by kind only.
inline std::string describe(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    return text.size() <= 40 ? io::json_string(text) : io::json_string(text.substr(0, 37)) + "...";
  }
  return value.dump();
}

inline const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

inline std::string index_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

class JsonReader {
 public:
  explicit JsonReader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& path, const std::string& why) const {
    throw Error(source_ + ": " + path + ": " + why);
  }

  void object(const Json& value, const std::string& path) const {
    if (!value.is_object()) fail(path, "expected an object, got " + describe(value));
  }

  void array(const Json& value, const std::string& path) const {
    if (!value.is_array()) fail(path, "expected an array, got " + describe(value));
  }

  std::string string(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, "expected a string, got " + describe(value));
    return value.get<std::string>();
  }

  bool boolean(const Json& value, const std::string& path) const {
    if (!value.is_boolean()) fail(path, "expected true or false, got " + describe(value));
    return value.get<bool>();
  }

  // Integers must be written as integers: 2.0 for a device index is a hand-edit mistake.
  long long integer(const Json& value, const std::string& path, long long low,
                    long long high) const {
    const bool in_range =
        (value.is_number_unsigned() &&
         value.get<unsigned long long>() <= static_cast<unsigned long long>(high)) ||
        (value.is_number_integer() && !value.is_number_unsigned() &&
         value.get<long long>() >= low && value.get<long long>() <= high);
    if (!in_range) {
      fail(path, "expected an integer from " + std::to_string(low) + " to " + std::to_string(high) +
                     ", got " + describe(value));
    }
    return value.get<long long>();
  }

  int int_value(const Json& value, const std::string& path, int low) const {
    return static_cast<int>(integer(value, path, low, std::numeric_limits<int>::max()));
  }

  std::uint32_t uint32_value(const Json& value, const std::string& path) const {
    return static_cast<std::uint32_t>(
        integer(value, path, 0, std::numeric_limits<std::uint32_t>::max()));
  }

  // Counts, byte sizes and CUPTI timestamps: the full unsigned 64-bit range.
  std::uint64_t uint64_value(const Json& value, const std::string& path) const {
    if (!value.is_number_unsigned()) {
      fail(path, "expected a non-negative integer, got " + describe(value));
    }
    return value.get<std::uint64_t>();
  }

  std::size_t byte_count(const Json& value, const std::string& path) const {
    return static_cast<std::size_t>(uint64_value(value, path));
  }

  double duration(const Json& value, const std::string& path) const {
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      fail(path, "expected a finite number, got " + describe(value));
    }
    const double ns = value.get<double>();
    if (ns < 0.0) fail(path, "expected a duration >= 0 ns, got " + describe(value));
    return ns;
  }

 private:
  const std::string& source_;
};

}  // namespace kerntime::report
