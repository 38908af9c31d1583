#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <charconv>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "dcsweep/workload/swf.hpp"
#include "dcsweep/workload/workload.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

const std::string kSmall =
    "; Version: 2.2\n"
    ";MaxNodes: 64\n"
    "; MaxProcs: 256\n"
    "\n"
    "1 0 5 100 8 -1 -1 8 200 -1 1 1 1 1 1 1 -1 -1\n"
    "   2 10 0 50 -1 -1 -1 16 -1 -1 5 1 1 1 1 1 -1 -1\n"
    "3 20 0 12.5 4 1.5 -1 4 30 -1 1 1 1 1 1 1 -1 -1\r\n";

TEST(Swf, ParsesHeaderRecordsAndUnknowns) {
  const SwfTrace t = parse_swf(kSmall, "small.swf");
  EXPECT_EQ(t.header.max_nodes, 64);
  EXPECT_EQ(t.header.max_procs, 256);
  ASSERT_EQ(t.records.size(), 3u);
  EXPECT_EQ(t.records[0].id, 1);
  EXPECT_EQ(t.records[0].runtime_s, 100);
  EXPECT_EQ(t.records[0].requested_s, 200);
  EXPECT_EQ(t.records[1].alloc_procs, -1);
  EXPECT_EQ(t.records[1].req_procs, 16);
  EXPECT_EQ(t.records[1].requested_s, -1);
  EXPECT_EQ(t.records[1].status, 5);
  EXPECT_EQ(t.records[1].line, 6);
  EXPECT_EQ(t.records[2].runtime_s, 12.5);
}

TEST(Swf, TraceMachineFromHeader) {
  const MachineSize m = trace_machine(parse_swf(kSmall, "small.swf"));
  EXPECT_EQ(m.nodes, 64);
  EXPECT_EQ(m.cores_per_node, 4);
  const MachineSize procs_only = trace_machine(parse_swf("; MaxProcs: 128\n", "p.swf"));
  EXPECT_EQ(procs_only.nodes, 128);
  EXPECT_EQ(procs_only.cores_per_node, 1);
  EXPECT_EQ(input_error([] { trace_machine(parse_swf("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n", "h.swf")); }),
            "h.swf: the header gives neither MaxNodes nor MaxProcs; choose a platform");
}

TEST(Swf, ErrorsAreOneLineWhateverTheBytesAndAbsurdTimesAreRefused) {
  // A CR, NUL or FS in a field is echoed escaped, and a long field is cut: the error stays one line.
  const std::string junk = std::string("1 0 0 1") + '\0' + "\x1c\r\v" + std::string(100, '7') +
                           " 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n";
  const std::string error = input_error([&] { parse_swf(junk, "j.swf"); });
  EXPECT_EQ(error.find_first_of(std::string("\r\n\v\x1c") + '\0'), std::string::npos) << error;
  EXPECT_NE(error.find("'1\\x00\\x1c"), std::string::npos) << error;
  EXPECT_LT(error.size(), 120u);
  EXPECT_EQ(input_error([] { parse_swf("1 999999999999999999999 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n", "t.swf"); }),
            "t.swf:1: field 2 (submit time) 1e+21 s is implausible (above 1e11 s, 3,000 years)");
  // Found by fuzz_swf: a count beyond any integer type was cast (undefined behaviour).
  EXPECT_EQ(input_error([] { parse_swf("1 0 0 1 1.2e128 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n", "c.swf"); }),
            "c.swf:1: field 5 (allocated processors) 1.2e+128 is out of range (above 1e15)");
}

TEST(Swf, MalformedLinesNameFileAndLine) {
  EXPECT_EQ(input_error([] { parse_swf("; c\n1 0 0 1 1\n", "bad.swf"); }), "bad.swf:2: expected 18 fields, found 5");
  EXPECT_EQ(input_error([] { parse_swf("1 0 0 x1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n", "bad.swf"); }),
            "bad.swf:1: field 4 is not a number: 'x1'");
  EXPECT_EQ(input_error([] { parse_swf("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1 7\n", "bad.swf"); }),
            "bad.swf:1: expected 18 fields, found 19");
}

TEST(Swf, EachFieldIsWhatFromCharsReadsOrAnError) {
  // The one-pass integer path against std::from_chars on the whole token, in field 1 (job number)
  // and field 4 (run time): signs, leading zeros, 15 and 16+ digits, decimals, exponents.
  const auto line = [](const std::string& id, const std::string& runtime) {
    return id + " 0 0 " + runtime + " 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n";
  };
  for (const std::string token : {"0", "007", "-0", "-5", "12.5", "1e3", "-1.5e2", "99999999999", "999999999999999",
                                  "0000000000000001234", "-000000000000000000042", "4.", ".5"}) {
    double expected = 0;
    ASSERT_EQ(std::from_chars(token.data(), token.data() + token.size(), expected).ec, std::errc()) << token;
    const bool time = std::abs(expected) <= 1e11;  // else refused as a time
    const SwfTrace t = parse_swf(line(token, time ? token : "1"), "f.swf");
    ASSERT_EQ(t.records.size(), 1u) << token;
    EXPECT_EQ(t.records[0].id, static_cast<std::int64_t>(expected)) << token;
    EXPECT_EQ(t.records[0].runtime_s, time ? expected : 1.0) << token;
  }
  for (const std::string token : {"1-2", "-", "12a", "--1", "+1", "1..2", "1e"}) {
    EXPECT_EQ(input_error([&] { parse_swf(line("1", token), "f.swf"); }),
              "f.swf:1: field 4 is not a number: '" + token + "'");
  }
  // 23 digits: read (no overflow on the way), then refused as a count.
  EXPECT_EQ(input_error([&] { parse_swf(line("12345678901234567890123", "1"), "f.swf"); }),
            "f.swf:1: field 1 (job number) 1.2345678901234568e+22 is out of range (above 1e15)");
}

TEST(Swf, MissingFileIsAnInputError) {
  EXPECT_EQ(input_error([] { read_swf("/nonexistent/x.swf"); }),
            "/nonexistent/x.swf: cannot open (No such file or directory)");
}

TEST(Swf, ReadsGzipAndPlainAlike) {
  const std::string plain = test::write_file("small.swf", kSmall);
  const std::string gz = test::temp_path("small.swf.gz").string();
  gzFile f = gzopen(gz.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, kSmall.data(), static_cast<unsigned>(kSmall.size()));
  gzclose(f);
  const SwfTrace a = read_swf(plain), b = read_swf(gz);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t i = 0; i < a.records.size(); ++i) EXPECT_EQ(a.records[i].runtime_s, b.records[i].runtime_s);
}

TEST(Swf, ReadsAStreamWhoseSizeIsNotKnownInAdvance) {
  // A named pipe has no size to read ahead: it is read in growing chunks (over 1 MiB here, so a
  // chunk doubles), into the same records as a file of the same bytes, which is read at once.
  std::string text;
  for (int i = 1; i <= 30000; ++i) text += std::to_string(i) + " 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  const std::string fifo = test::temp_path("stream.swf").string();
  std::filesystem::remove(fifo);
  if (mkfifo(fifo.c_str(), 0600) != 0) GTEST_SKIP() << "no named pipes in " << fifo;
  // A reader that stops early must fail this test, not kill the process (SIGPIPE) or leave the
  // writer's thread unjoined.
  const auto old_pipe = std::signal(SIGPIPE, SIG_IGN);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  SwfTrace streamed;
  std::string error;
  try {
    streamed = read_swf(fifo);
  } catch (const std::exception& e) {
    error = e.what();
  }
  writer.join();
  std::signal(SIGPIPE, old_pipe);
  std::filesystem::remove(fifo);
  ASSERT_EQ(error, "");
  const SwfTrace whole = read_swf(test::write_file("whole.swf", text));
  ASSERT_EQ(streamed.records.size(), 30000u);
  ASSERT_EQ(whole.records.size(), 30000u);
  for (std::size_t i = 0; i < whole.records.size(); i += 997) {
    EXPECT_EQ(streamed.records[i].id, whole.records[i].id);
    EXPECT_EQ(streamed.records[i].line, whole.records[i].line);
  }
  EXPECT_EQ(streamed.records.back().id, 30000);
}

/// `text` gzip-compressed (one member), as zlib writes it.
std::string gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, uLong(text.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = uInt(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(Swf, ConcatenatedGzipMembersAreOneText) {
  // `cat a.gz b.gz`: the second member is tiny, so the buffer sized from the last member's
  // trailer is too small for the first and grows; the text is the two texts in turn.
  std::string big;
  for (int i = 1; i <= 5000; ++i) big += std::to_string(i) + " 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";
  const std::string tail = "5001 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n";
  const std::string path = test::write_file("two.swf.gz", gzip(big) + gzip(tail));
  const SwfTrace t = read_swf(path);
  ASSERT_EQ(t.records.size(), 5001u);
  EXPECT_EQ(t.records.back().id, 5001);
  EXPECT_EQ(t.records.back().line, 5001);
}

TEST(Swf, CorruptOrTruncatedGzipIsOneInputError) {
  const std::string whole = gzip(kSmall);
  const std::string cut = test::write_file("cut.swf.gz", whole.substr(0, whole.size() - 9));
  EXPECT_EQ(input_error([&] { read_swf(cut); }), cut + ": cannot read: corrupt or truncated gzip data");
  std::string flipped = whole;
  flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x55);
  const std::string bad = test::write_file("flipped.swf.gz", flipped);
  EXPECT_EQ(input_error([&] { read_swf(bad); }), bad + ": cannot read: corrupt or truncated gzip data");
  const std::string trailing = test::write_file("trailing.swf.gz", whole + "garbage after the member\n");
  EXPECT_EQ(input_error([&] { read_swf(trailing); }), trailing + ": cannot read: trailing bytes after gzip data");
}

}  // namespace
}  // namespace dcsweep
