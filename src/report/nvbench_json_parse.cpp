// SPDX-License-Identifier: Apache-2.0
// Reads NVBench JSON (`--json FILE`, `--jsonbin FILE`; NVBench's nvbench/json_printer.cu) into
// the report model: an entry per benchmark state and measurement (cold, batch, cpu_only). Its
// values are strings ("0.0010034715849794225" seconds); the per-sample cold times are only in
// the little-endian float32 files `--jsonbin` writes beside the JSON, which a summary names
// relative to the JSON's folder, and only there (nvbench_sample_file.hpp). The file is small
// (summaries), so it is read as a DOM.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <kerntime/error.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>

#include "io/json_text.hpp"
#include "report/json_reader.hpp"
#include "report/json_text_errors.hpp"
#include "report/nvbench_sample_file.hpp"

namespace kerntime {
namespace report {
namespace {

// NVBench's measurements as kerntime names them: its batch measurement is kerntime's hot mode.
struct Mode {
  const char* nvbench;  // the tag part: "nv/<nvbench>/..."
  const char* suffix;   // the entry name's last part
  const char* timer;
  const char* median_tag;
  const char* mean_tag;
  const char* noise_tag;  // the relative standard deviation; NVBench writes none for batch
};

constexpr Mode kModes[] = {
    {"cold", "cold", "nvbench-cold", "nv/cold/time/gpu/median", "nv/cold/time/gpu/mean",
     "nv/cold/time/gpu/stdev/relative"},
    {"batch", "hot", "nvbench-batch", nullptr, "nv/batch/time/gpu/mean", nullptr},
    {"cpu_only", "cpu_only", "nvbench-cpu-only", "nv/cpu_only/time/cpu/median",
     "nv/cpu_only/time/cpu/mean", "nv/cpu_only/time/cpu/stdev/relative"},
};

// What the sample files of one NVBench JSON may hold together: the limit of a report file, so
// that a JSON naming one huge file (or one file many times) cannot exhaust memory.
constexpr std::uint64_t kMaxSampleFileBytes = kMaxReportFileBytes;

struct Counts {
  std::size_t summaries_only = 0;  // cold and cpu_only measurements without sample files
  std::size_t batches = 0;         // batch measurements: NVBench writes their mean only
  std::size_t missing_files = 0;
  std::size_t refused_files = 0;
  std::string first_refused;
  std::uint64_t sample_bytes_read = 0;  // of every sample file, against kMaxSampleFileBytes
  std::size_t skipped = 0;
  std::string first_skipped;
  bool files_named = false;
};

class Reader : public JsonReader {
 public:
  Reader(const std::string& source, const ReportReadOptions& options)
      : JsonReader(source), options_(options), source_(source) {}

  Report report(const Json& root) {
    object(root, "top level");
    Report report;
    if (const Json* devices = member(root, "devices"); devices != nullptr && !devices->is_null()) {
      array(*devices, "devices");
      for (std::size_t i = 0; i < devices->size(); ++i) {
        report.environment.devices.push_back(device((*devices)[i], index_path("devices", i)));
      }
    }
    const Json* benchmarks = member(root, "benchmarks");
    if (benchmarks == nullptr) {
      fail("benchmarks", "missing; an NVBench file lists its benchmarks in \"benchmarks\"");
    }
    array(*benchmarks, "benchmarks");
    for (std::size_t i = 0; i < benchmarks->size(); ++i) {
      benchmark((*benchmarks)[i], index_path("benchmarks", i), report);
    }
    warn(report);
    return report;
  }

 private:
  DeviceInfo device(const Json& value, const std::string& path) const {
    object(value, path);
    DeviceInfo d;
    const auto number = [&](const char* key) -> std::optional<std::uint64_t> {
      const Json* v = member(value, key);
      if (v == nullptr) return std::nullopt;
      return uint64_value(*v, path + "." + key);
    };
    const auto small = [&](const char* key, int& field, std::uint64_t divisor = 1) {
      if (const auto v = number(key)) {
        if (*v / divisor > 0x7fffffffULL) fail(path + "." + key, "too large");
        field = static_cast<int>(*v / divisor);
      }
    };
    if (const Json* v = member(value, "id")) d.index = int_value(*v, path + ".id", 0);
    if (const Json* v = member(value, "name")) d.name = string(*v, path + ".name");
    if (const auto sm = number("sm_version")) {  // 900 is compute capability 9.0
      if (*sm > 100'000) fail(path + ".sm_version", "too large");
      d.compute_capability_major = static_cast<int>(*sm / 100);
      d.compute_capability_minor = static_cast<int>(*sm % 100 / 10);
    }
    small("number_of_sms", d.multiprocessor_count);
    if (const auto v = number("global_memory_size")) d.total_memory_bytes = *v;
    if (const auto v = number("l2_cache_size")) d.l2_cache_bytes = *v;
    small("sm_default_clock_rate", d.sm_clock_khz, 1000);  // NVBench gives Hz
    small("global_memory_bus_peak_clock_rate", d.memory_clock_khz, 1000);
    small("global_memory_bus_width", d.memory_bus_width_bits);
    if (const Json* v = member(value, "ecc_state"))
      d.ecc_enabled = boolean(*v, path + ".ecc_state");
    return d;
  }

  // A list NVBench may write as null when it is empty ("axes": null).
  const Json* list(const Json& object, const char* key, const std::string& path) const {
    const Json* v = member(object, key);
    if (v == nullptr || v->is_null()) return nullptr;
    array(*v, path + "." + key);
    return v;
  }

  void benchmark(const Json& value, const std::string& path, Report& report) {
    object(value, path);
    const Json* name_value = member(value, "name");
    if (name_value == nullptr) fail(path + ".name", "missing; every benchmark has a name");
    const std::string name = string(*name_value, path + ".name");
    if (name.empty()) fail(path + ".name", "empty; every benchmark needs a name");
    bool several_devices = false;
    if (const Json* devices = list(value, "devices", path)) several_devices = devices->size() > 1;
    const Json* states = list(value, "states", path);
    if (states == nullptr) return;
    for (std::size_t i = 0; i < states->size(); ++i) {
      state((*states)[i], index_path(path + ".states", i), name, several_devices, report);
    }
  }

  void state(const Json& value, const std::string& path, const std::string& benchmark,
             bool several_devices, Report& report) {
    object(value, path);
    std::optional<int> device;
    if (const Json* v = member(value, "device")) device = int_value(*v, path + ".device", 0);
    if (const Json* v = member(value, "is_skipped");
        v != nullptr && boolean(*v, path + ".is_skipped")) {
      if (counts_.skipped++ == 0) {
        counts_.first_skipped = benchmark + " " + state_name(value, path);
        if (const Json* reason = member(value, "skip_reason")) {
          counts_.first_skipped += ": " + string(*reason, path + ".skip_reason");
        }
      }
      return;
    }
    std::string name = benchmark;
    if (several_devices && device) name += "/device=" + std::to_string(*device);
    if (const Json* axes = list(value, "axis_values", path)) {
      for (std::size_t i = 0; i < axes->size(); ++i) {
        name += "/" + axis_value((*axes)[i], index_path(path + ".axis_values", i));
      }
    }
    std::unordered_map<std::string, const Json*> summaries;
    if (const Json* list_value = list(value, "summaries", path)) {
      for (std::size_t i = 0; i < list_value->size(); ++i) {
        const Json& summary = (*list_value)[i];
        const std::string summary_path = index_path(path + ".summaries", i);
        object(summary, summary_path);
        const Json* tag = member(summary, "tag");
        if (tag == nullptr) fail(summary_path + ".tag", "missing; every summary has a tag");
        summaries.emplace(string(*tag, summary_path + ".tag"), &summary);
        paths_[&summary] = summary_path;
      }
    }
    for (const Mode& mode : kModes) {
      Entry e;
      e.name = name + "/" + mode.suffix;
      e.timer = mode.timer;
      e.device = device;
      if (!samples(summaries, mode, e)) continue;
      if (!names_.emplace(e.name, path).second) {
        fail(path,
             "gives the entry " + io::json_string(e.name) + " again (also " + names_[e.name] + ")");
      }
      try {
        e.statistics = compute_statistics(e.samples, options_.statistics);
      } catch (const Error& error) {
        fail(path, error.what());
      }
      report.entries.push_back(std::move(e));
    }
  }

  // NVBench's "{:0.5g}"; text that is not a finite number stays as it is.
  static std::string nvbench_float64_text(const std::string& text) {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x)) return text;
    return fmt::format("{:0.5g}", x);
  }

  std::string state_name(const Json& value, const std::string& path) const {
    const Json* v = member(value, "name");
    return v == nullptr ? "" : string(*v, path + ".name");
  }

  // "T=I32", "Elements=1048576", "Duration=0.0003": the name and the value as NVBench prints
  // it: a float64 axis value with 5 significant digits (float64_axis's "{:0.5g}"), so that
  // 0.00030000000000000003 reads 0.0003; others as written (the numbers of older files as JSON
  // writes them).
  std::string axis_value(const Json& value, const std::string& path) const {
    object(value, path);
    const Json* name = member(value, "name");
    if (name == nullptr) fail(path + ".name", "missing; every axis value has a name");
    const Json* v = member(value, "value");
    if (v == nullptr) fail(path + ".value", "missing; every axis value has a value");
    std::string text;
    if (v->is_string()) {
      text = v->get<std::string>();
    } else if (v->is_number() && std::isfinite(v->get<double>())) {
      text = v->dump();
    } else {
      fail(path + ".value", "expected a string or a number, got " + describe(*v));
    }
    const Json* type = member(value, "type");
    if (type != nullptr && type->is_string() && type->get<std::string>() == "float64") {
      text = nvbench_float64_text(text);
    }
    return string(*name, path + ".name") + "=" + text;
  }

  // The value named `name` in a summary's "data" ([{"name", "type", "value"}]), and its path.
  struct Datum {
    const Json* value = nullptr;
    std::string path;
  };
  Datum data(const Json& summary, const char* name) const {
    const std::string& path = paths_.at(&summary);
    const Json* items = list(summary, "data", path);
    if (items == nullptr) return {};
    for (std::size_t i = 0; i < items->size(); ++i) {
      const Json& item = (*items)[i];
      const std::string item_path = index_path(path + ".data", i);
      object(item, item_path);
      const Json* key = member(item, "name");
      if (key == nullptr || string(*key, item_path + ".name") != name) continue;
      const Json* v = member(item, "value");
      if (v == nullptr) fail(item_path + ".value", "missing; every summary value has one");
      return {v, item_path + ".value"};
    }
    return {};
  }

  // NVBench writes numbers as strings so that int64 survives; seconds here.
  double number(const Json& value, const std::string& path) const {
    double parsed = 0.0;
    if (value.is_number()) {
      parsed = value.get<double>();
    } else if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (error != std::errc() || end != text.data() + text.size()) {
        fail(path, "expected a number, got " + describe(value));
      }
    } else {
      fail(path, "expected a number, got " + describe(value));
    }
    if (!std::isfinite(parsed) || parsed < 0) {
      fail(path, "expected a finite number >= 0, got " + describe(value));
    }
    return parsed;
  }

  double nanoseconds(const Json& summary) const {
    const Datum v = data(summary, "value");
    if (v.value == nullptr) fail(paths_.at(&summary) + ".data", "no \"value\"");
    return duration_ns(*this, number(*v.value, v.path), 1e9, *v.value, v.path);
  }

  bool samples(const std::unordered_map<std::string, const Json*>& summaries, const Mode& mode,
               Entry& entry) {
    const auto find = [&](const char* tag) -> const Json* {
      if (tag == nullptr) return nullptr;
      const auto it = summaries.find(tag);
      return it == summaries.end() ? nullptr : it->second;
    };
    const std::string prefix = "nv/" + std::string{mode.nvbench};
    const Json* file = find(("nv/json/bin:" + prefix + "/sample_times").c_str());
    if (file != nullptr && sample_file(*file, entry.name, entry.samples)) return true;
    const Json* figure = find(mode.median_tag);
    if (figure == nullptr) figure = find(mode.mean_tag);
    if (figure == nullptr) return false;
    entry.samples.push_back(nanoseconds(*figure));
    ++(mode.median_tag == nullptr ? counts_.batches : counts_.summaries_only);
    entry.summary_only = summary_only(find(mode.mean_tag), find((prefix + "/sample_size").c_str()),
                                      find(mode.noise_tag));
    return true;
  }

  // What compare judges a summaries-only entry from: NVBench's sample size, mean and relative
  // standard deviation (the figures nvbench_compare.py compares). None without a mean and a
  // size; the noise may be absent or null (NVBench writes infinity, too few samples, as null).
  std::optional<SummaryOnly> summary_only(const Json* mean, const Json* size,
                                          const Json* noise) const {
    if (mean == nullptr || size == nullptr) return std::nullopt;
    const Datum count = data(*size, "value");
    if (count.value == nullptr) return std::nullopt;
    const double n = number(*count.value, count.path);
    if (n != std::floor(n) || n > 1e15) {
      fail(count.path, "expected a whole number of samples, got " + describe(*count.value));
    }
    SummaryOnly summary;
    summary.count = static_cast<std::uint64_t>(n);
    summary.mean = nanoseconds(*mean);
    if (noise != nullptr) {
      const Datum v = data(*noise, "value");
      if (v.value != nullptr && !v.value->is_null()) {
        summary.relative_stdev = number(*v.value, v.path);
      }
    }
    return summary;
  }

  // The cold sample times: size little-endian float32 values of seconds in the file the
  // summary names, relative to the JSON's folder and inside it. A file that is not there (not
  // copied with the JSON, or read from standard input) leaves the summaries; so does one that
  // is refused (outside the folder, not a regular file, past kMaxSampleFileBytes), with a
  // warning, so that bad input loses no measurement. A file that is read must be whole.
  bool sample_file(const Json& summary, const std::string& entry, std::vector<double>& out) {
    counts_.files_named = true;
    const std::string& path = paths_.at(&summary);
    const Datum filename = data(summary, "filename");
    const Datum size = data(summary, "size");
    if (filename.value == nullptr || size.value == nullptr)
      return false;  // NVBench could not write it
    const std::string name = string(*filename.value, filename.path);
    const double count_value = number(*size.value, size.path);
    if (count_value != std::floor(count_value) || count_value > 1e9) {
      fail(size.path, "expected a whole number of samples, got " + describe(*size.value));
    }
    const auto count = static_cast<std::uint64_t>(count_value);
    if (options_.nvbench_directory.empty()) return false;
    NvbenchSampleFile file = read_nvbench_sample_file(
        options_, source_, {name, path, count, kMaxSampleFileBytes - counts_.sample_bytes_read});
    switch (file.status) {
      case NvbenchSampleFile::Status::missing:
        ++counts_.missing_files;
        return false;
      case NvbenchSampleFile::Status::refused:
        refuse(name, entry, file.why);
        return false;
      case NvbenchSampleFile::Status::changed:
        fail(filename.path, file.why);
      case NvbenchSampleFile::Status::read:
        break;
    }
    counts_.sample_bytes_read += file.bytes_read;
    out = std::move(file.samples_ns);
    return true;
  }

  // One warning tells the first refusal; the name is quoted (it may hold any byte) and cut.
  void refuse(const std::string& name, const std::string& entry, const std::string& why) {
    if (counts_.refused_files++ > 0) return;
    constexpr std::size_t kShown = 100;
    const std::string quoted = name.size() <= kShown
                                   ? io::json_string(name)
                                   : io::json_string(name.substr(0, kShown)) + "...";
    counts_.first_refused =
        "NVBench sample file " + quoted + " of entry " + io::json_string(entry) + " " + why;
  }

  void warn(Report& report) const {
    if (counts_.refused_files > 0) {
      std::string more;
      if (counts_.refused_files > 1) {
        more = " (and " + std::to_string(counts_.refused_files - 1) + " more sample files)";
      }
      report.warnings.push_back(counts_.first_refused + "; refused" + more +
                                ", NVBench's summaries stand in");
    }
    if (counts_.summaries_only > 0) {
      std::string why = "no --jsonbin sample files";
      if (counts_.files_named && options_.nvbench_directory.empty()) {
        why =
            "its --jsonbin sample files are not read without the JSON file's folder (standard "
            "input)";
      } else if (counts_.missing_files > 0 || counts_.refused_files > 0) {
        const bool missing = counts_.missing_files > 0;
        why = std::to_string(missing ? counts_.missing_files : counts_.refused_files) +
              " --jsonbin sample files it names were " +
              (missing ? "not found in its folder, the working directory or its " +
                             (options_.nvbench_json_name.empty() ? std::string{"FILE"}
                                                                 : options_.nvbench_json_name) +
                             "-bin folder"
                       : "refused");
        if (missing && counts_.refused_files > 0) {
          why += " and " + std::to_string(counts_.refused_files) + " were refused";
        }
      }
      report.warnings.push_back(
          std::to_string(counts_.summaries_only) + " NVBench measurements have summaries only (" +
          why +
          "): one sample each, NVBench's median (else mean) time; kerntime compare judges them "
          "from NVBench's sample size, mean and noise, which needs a larger change than samples "
          "would; write the samples with --jsonbin FILE and keep its FILE-bin folder beside "
          "FILE");
    }
    if (counts_.batches > 0) {
      report.warnings.push_back(std::to_string(counts_.batches) +
                                " NVBench batch measurements (the /hot entries) have one sample "
                                "each, NVBench's mean batch time (it writes no batch samples "
                                "and no batch noise): too few for kerntime compare; compare the "
                                "/cold entries");
    }
    if (counts_.skipped > 0) {
      report.warnings.push_back(
          std::to_string(counts_.skipped) +
          " NVBench states were skipped and are left out (first: " + counts_.first_skipped + ")");
    }
  }

  ReportReadOptions options_;
  Counts counts_;
  std::unordered_map<std::string, std::string> names_;  // entry name -> the state that gave it
  std::unordered_map<const Json*, std::string> paths_;  // summary -> its JSON path
  const std::string& source_;
};

}  // namespace
}  // namespace report

Report parse_nvbench_json(std::string_view json_text, const std::string& source,
                          const ReportReadOptions& options) {
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw Error(source + ": the file is empty; expected NVBench JSON");
  }
  report::Json root;
  try {
    root = report::Json::parse(json_text.begin(), json_text.end());
  } catch (const report::Json::exception& e) {
    report::throw_json_text_error(json_text, source, e);
  }
  report::Reader reader(source, options);
  return reader.report(root);
}

}  // namespace kerntime
