// kernelslist.g: kernel launches and host-to-device copies, resolved against the list's directory.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"

namespace numagpu::trace {
namespace {

using testing::data_path;
using testing::TempDir;

TEST(KernelList, ReadsCommandsInOrder) {
  const KernelList list = read_kernel_list(data_path("kernelslist.g"));
  ASSERT_EQ(list.commands.size(), 4u);
  EXPECT_TRUE(list.warnings.empty());

  const TraceCommand& copy = list.commands[0];  // MemcpyHtoD,0x00007f5000001000,4096
  EXPECT_EQ(copy.kind, TraceCommand::Kind::kMemcpyHtoD);
  EXPECT_EQ(copy.address, 0x7f5000001000u);
  EXPECT_EQ(copy.bytes, 4096u);
  EXPECT_EQ(copy.line, 1u);

  EXPECT_EQ(list.commands[1].kind, TraceCommand::Kind::kKernel);
  EXPECT_EQ(list.commands[1].path, data_path("kernel-1-modes-v5.traceg"));
  EXPECT_EQ(list.commands[2].bytes, 8192u);
  EXPECT_EQ(list.kernel_paths(), (std::vector<std::string>{data_path("kernel-1-modes-v5.traceg"),
                                                           data_path("kernel-2-lineinfo-v4.traceg")}));
}

TEST(KernelList, EveryListedKernelReads) {
  uint64_t instructions = 0;
  for (const std::string& path : read_kernel_list(data_path("kernelslist.g")).kernel_paths()) {
    AccelSimKernelReader reader(path);
    instructions += count_trace(reader).instructions;
  }
  EXPECT_EQ(instructions, 17u + 11u);
}

TEST(KernelList, CompressedKernelFilesAndUnknownLines) {
  TempDir dir;
  const std::string list =
      dir.write("kernelslist.g", "\nkernel-1.traceg.xz\nMemcpyDtoH,0x10,4\r\nkernel-2.traceg.gz\n");
  const KernelList read = read_kernel_list(list);
  EXPECT_EQ(read.kernel_paths(),
            (std::vector<std::string>{dir.path("kernel-1.traceg.xz"), dir.path("kernel-2.traceg.gz")}));
  ASSERT_EQ(read.warnings.size(), 1u);
  EXPECT_EQ(read.warnings[0], list +
                                  ":3: 'MemcpyDtoH,0x10,4' ignored (expected a kernel trace file name or "
                                  "'MemcpyHtoD,<hex address>,<bytes>')");
}

TEST(KernelList, MalformedCopyIsAnError) {
  TempDir dir;
  const std::string list = dir.write("kernelslist.g", "kernel-1.traceg\nMemcpyHtoD,0x10\n");
  EXPECT_EQ(testing::error_of([&] { read_kernel_list(list); }),
            list + ":2: expected 'MemcpyHtoD,<hex address>,<bytes>', found 'MemcpyHtoD,0x10'");
}

TEST(KernelList, MissingListIsAnError) {
  TempDir dir;
  EXPECT_EQ(testing::error_of([&] { read_kernel_list(dir.path("nope.g")); }),
            dir.path("nope.g") + ": cannot open (No such file or directory)");
}

}  // namespace
}  // namespace numagpu::trace
