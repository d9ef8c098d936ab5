// SPDX-License-Identifier: Apache-2.0
// A base for SAX handlers that follow only the structure of a JSON text (where it is, which
// keys it passes), not its values: every scalar event is one value().
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace kerntime::report {

class StructureSax : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }

 protected:
  /// A scalar value was read; false stops the parse.
  virtual bool value() = 0;
};

}  // namespace kerntime::report
