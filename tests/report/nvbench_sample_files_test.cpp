// SPDX-License-Identifier: Apache-2.0
// NVBench's --jsonbin sample files are read from the JSON's folder and nowhere else (issue 25):
// a JSON from anyone must not make kerntime read another file and print its bytes as samples.
// resolve_inside() on its own, then the reader: what is refused, what stands in, what is kept.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_interop.hpp>

#include "report/file_in_folder.hpp"
#include "support/nvbench_sample_file.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;
using report::FileInFolder;
using report::resolve_inside;

// A fresh tree for each test:
//   ROOT/secret.bin                 two samples nobody may read through the JSON
//   ROOT/outside/0.bin              the same samples, in a folder beside the JSON's
//   ROOT/json/r.json-bin/0.bin      the JSON's own samples
//   ROOT/json/inside.bin            -> r.json-bin/0.bin (a link that stays inside)
//   ROOT/json/secret.bin            -> ../secret.bin
//   ROOT/json/out                   -> ../outside
//   ROOT/json/absolute.bin          -> ROOT/secret.bin
//   ROOT/json/dangling.bin          -> ../no-such-file
//   ROOT/json/fifo.bin              a FIFO
class SampleFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ =
        fs::path{::testing::TempDir()} / (std::string{"kerntime_nvbench_files_"} + test->name());
    fs::remove_all(root_);
    testing::write_nvbench_samples(root_ / "secret.bin", kSecret);
    testing::write_nvbench_samples(root_ / "outside/0.bin", kSecret);
    testing::write_nvbench_samples(folder() / "r.json-bin/0.bin", kOwn);
    fs::create_symlink("r.json-bin/0.bin", folder() / "inside.bin");
    fs::create_symlink("../secret.bin", folder() / "secret.bin");
    fs::create_symlink("../outside", folder() / "out");
    fs::create_symlink(root_ / "secret.bin", folder() / "absolute.bin");
    fs::create_symlink("../no-such-file", folder() / "dangling.bin");
    ASSERT_EQ(::mkfifo((folder() / "fifo.bin").c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path folder() const { return root_ / "json"; }

  FileInFolder resolve(const std::string& name) const {
    return resolve_inside(folder(), name, "the folder of r.json");
  }

  // The refusal of `name`, or what happened instead.
  std::string refusal(const std::string& name) const {
    const FileInFolder file = resolve(name);
    if (file.status == FileInFolder::Status::found) return "(found " + file.path.string() + ")";
    if (file.status == FileInFolder::Status::missing) return "(missing)";
    return file.refusal;
  }

  // An NVBench JSON of two states: "own" names `own_file`, "other" names `other_file`; each has
  // a median summary of 1 us (own) or 2 us (other) that stands in without samples.
  static std::string nvbench_json(const std::string& own_file, const std::string& other_file,
                                  const std::string& other_size = "2") {
    const auto state = [](const std::string& name, const std::string& median,
                          const std::string& file, const std::string& size) {
      return R"({"name": ")" + name + R"(", "axis_values": [{"name": "s", "value": ")" + name +
             R"("}], "summaries": [
          {"tag": "nv/cold/time/gpu/median", "data": [{"name": "value", "value": ")" +
             median + R"("}]},
          {"tag": "nv/json/bin:nv/cold/sample_times", "data": [
            {"name": "filename", "type": "string", "value": )" +
             file + R"(},
            {"name": "size", "type": "int64", "value": ")" +
             size + R"("}]}]})";
    };
    return R"({"meta": {}, "benchmarks": [{"name": "k", "states": [)" +
           state("own", "1e-6", own_file, "3") + ", " +
           state("other", "2e-6", other_file, other_size) + "]}]}";
  }

  Report read(const std::string& json) const {
    ReportReadOptions options;
    options.nvbench_directory = folder().string();
    return parse_any_report(json, "r.json", options);
  }

  static std::vector<double> ns(const std::vector<float>& seconds) {
    std::vector<double> out;
    for (const float s : seconds)
      out.push_back(static_cast<double>(s) * 1e9);
    return out;
  }

  const std::vector<float> kSecret{4.25e-3f, 7.5e-3f};
  const std::vector<float> kOwn{1.0e-6f, 1.5e-6f, 2.0e-6f};
  fs::path root_;
};

TEST_F(SampleFiles, ANameInsideTheFolderIsFoundWithItsLinksResolved) {
  const FileInFolder own = resolve("r.json-bin/0.bin");
  ASSERT_EQ(own.status, FileInFolder::Status::found) << own.refusal;
  EXPECT_EQ(own.path, fs::canonical(folder() / "r.json-bin/0.bin"));
  // A link that stays inside, and `..` that stay inside, are fine.
  EXPECT_EQ(resolve("inside.bin").path, own.path);
  EXPECT_EQ(resolve("r.json-bin/../r.json-bin/./0.bin").path, own.path);
  EXPECT_EQ(refusal("r.json-bin/1.bin"), "(missing)");
  EXPECT_EQ(refusal("no-such-folder/0.bin"), "(missing)");
  // A folder that does not exist holds nothing (the JSON moved without its files).
  EXPECT_EQ(resolve_inside(root_ / "gone", "r.json-bin/0.bin", "x").status,
            FileInFolder::Status::missing);
}

TEST_F(SampleFiles, ANameThatLeavesTheFolderIsRefusedBeforeAnythingIsRead) {
  EXPECT_EQ(refusal("../secret.bin"), "lies outside the folder of r.json");
  EXPECT_EQ(refusal("r.json-bin/../../secret.bin"), "lies outside the folder of r.json");
  EXPECT_EQ(refusal("../json/../../secret.bin"), "lies outside the folder of r.json");
  // A file that is not there outside is refused alike: the answer tells nothing about it.
  EXPECT_EQ(refusal("../no-such-file"), "lies outside the folder of r.json");
  EXPECT_EQ(refusal((root_ / "secret.bin").string()),
            "is an absolute path, not a name relative to the folder of r.json");
  EXPECT_EQ(refusal("/dev/zero"),
            "is an absolute path, not a name relative to the folder of r.json");
  const std::string link =
      "passes through a symbolic link that leads out of the folder of r.json or to no file";
  EXPECT_EQ(refusal("secret.bin"), link);
  EXPECT_EQ(refusal("absolute.bin"), link);
  EXPECT_EQ(refusal("out/0.bin"), link);
  EXPECT_EQ(refusal("out/no-such-file"), link);
  EXPECT_EQ(refusal("dangling.bin"), link);  // the same words as a link to a file outside
}

TEST_F(SampleFiles, WhereTheNameLeadsCountsNotTheWayThere) {
  // `..` after a link climbs from the link's target, as the system opens it: out/.. is ROOT,
  // so this name leads back into the folder, to a file that is fine to read.
  EXPECT_EQ(resolve("out/../json/r.json-bin/0.bin").path,
            fs::canonical(folder() / "r.json-bin/0.bin"));
  EXPECT_EQ(refusal("out/../secret.bin"),
            "passes through a symbolic link that leads out of the folder of r.json or to no file");
}

TEST_F(SampleFiles, OnlyRegularFilesWithSaneNamesAreRead) {
  EXPECT_EQ(refusal("fifo.bin"), "is a FIFO, not a regular file");
  EXPECT_EQ(refusal("r.json-bin"), "is a directory, not a regular file");
  EXPECT_EQ(refusal("."), "names the folder of r.json, not a file");
  EXPECT_EQ(refusal("r.json-bin/.."), "names the folder of r.json, not a file");
  EXPECT_EQ(refusal(""), "is an empty name");
  // The system would stop at the NUL and open "../secret.bin".
  EXPECT_EQ(refusal(std::string{"../secret.bin\0.x", 16}), "holds a NUL byte");
  EXPECT_EQ(refusal(std::string{"r.json-bin/0.bin\0", 17}), "holds a NUL byte");
  EXPECT_EQ(refusal(std::string(5000, 'a')), "is longer than 4096 bytes");
  EXPECT_EQ(refusal(std::string(300, 'a') + "/0.bin"), "cannot be resolved: File name too long");
}

TEST_F(SampleFiles, TheReaderNeverReadsAFileOutsideTheFolder) {
  // The issue's reproduction: `kerntime report --format json` printed the secret's bytes as
  // samples. Now the entry keeps NVBench's summary, and the other state its own samples.
  for (const std::string name : {"../secret.bin", "secret.bin", "out/0.bin"}) {
    SCOPED_TRACE(name);
    const Report r = read(nvbench_json("\"r.json-bin/0.bin\"", "\"" + name + "\""));
    ASSERT_EQ(r.entries.size(), 2u);
    EXPECT_EQ(r.entries[0].name, "k/s=own/cold");
    EXPECT_EQ(r.entries[0].samples, ns(kOwn));
    EXPECT_EQ(r.entries[1].name, "k/s=other/cold");
    EXPECT_EQ(r.entries[1].samples, std::vector<double>{2000.0});
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_EQ(r.warnings[1],
              "1 NVBench measurements have summaries only (1 --jsonbin sample files it names "
              "were refused): one sample each, NVBench's median (else mean) time; kerntime "
              "compare judges them from NVBench's sample size, mean and noise, which needs a "
              "larger change than samples would; write the samples with --jsonbin FILE and keep "
              "its FILE-bin folder beside FILE");
  }
  const Report r = read(nvbench_json("\"r.json-bin/0.bin\"", "\"../secret.bin\""));
  EXPECT_EQ(r.warnings[0],
            "NVBench sample file \"../secret.bin\" of entry \"k/s=other/cold\" lies outside the "
            "folder of r.json; refused, NVBench's summaries stand in");
}

TEST_F(SampleFiles, EveryRefusalIsOneLineAndTheFirstIsNamed) {
  const std::string absolute = "\"" + (root_ / "secret.bin").string() + "\"";
  const Report r = read(nvbench_json(absolute, "\"fifo.bin\""));
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].samples, std::vector<double>{1000.0});
  EXPECT_EQ(r.entries[1].samples, std::vector<double>{2000.0});
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0], "NVBench sample file " + absolute +
                               " of entry \"k/s=own/cold\" is an absolute path, not a name "
                               "relative to the folder of r.json; refused (and 1 more sample "
                               "files), NVBench's summaries stand in");
  EXPECT_TRUE(r.warnings[1].find("(2 --jsonbin sample files it names were refused)") !=
              std::string::npos)
      << r.warnings[1];

  // A name with a NUL and a line break is quoted, and a long one cut, so the warning stays one
  // line of reasonable length.
  const Report odd = read(nvbench_json(R"("../secret.bin\u0000\nx")", "\"missing.bin\""));
  EXPECT_EQ(odd.warnings[0],
            "NVBench sample file \"../secret.bin\\u0000\\nx\" of entry \"k/s=own/cold\" holds a "
            "NUL byte; refused, NVBench's summaries stand in");
  EXPECT_TRUE(odd.warnings[1].find("(1 --jsonbin sample files it names were not found in its "
                                   "folder, the working directory or its FILE-bin folder and 1 "
                                   "were refused)") != std::string::npos)
      << odd.warnings[1];
  const Report longer = read(nvbench_json("\"" + std::string(5000, 'a') + "\"", "\"x\""));
  EXPECT_EQ(longer.warnings[0], "NVBench sample file \"" + std::string(100, 'a') +
                                    "\"... of entry \"k/s=own/cold\" is longer than 4096 bytes; "
                                    "refused, NVBench's summaries stand in");
}

TEST_F(SampleFiles, AtMostOneGibOfSampleFilesIsRead) {
  // 300 million samples would be 1.2 GB: refused before anything is read (a file read would
  // end in an error: it holds 8 bytes), and the summary stands in.
  const Report r = read(nvbench_json("\"r.json-bin/0.bin\"", "\"inside.bin\"", "300000000"));
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.entries[0].samples, ns(kOwn));
  EXPECT_EQ(r.entries[1].samples, std::vector<double>{2000.0});
  EXPECT_EQ(r.warnings[0],
            "NVBench sample file \"inside.bin\" of entry \"k/s=other/cold\" would pass the limit "
            "of 1 GiB of sample files read for one NVBench JSON; refused, NVBench's summaries "
            "stand in");
}

TEST_F(SampleFiles, AFileInsideTheFolderMustStillBeWhole) {
  // Refusal is for names; a file that is there and read keeps the existing error.
  try {
    read(nvbench_json("\"r.json-bin/0.bin\"", "\"inside.bin\"", "4"));
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string{error.what()},
              (folder() / "inside.bin").string() +
                  ": holds 12 bytes, but r.json (benchmarks[0].states[1].summaries[1]) says 4 "
                  "float32 samples (16 bytes)");
  }
}

}  // namespace
}  // namespace kerntime
