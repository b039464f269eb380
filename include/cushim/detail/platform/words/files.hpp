// What cushim says of a file it checked, holds and loads, when the file changed under it: the
// platform's file_pin and pinned_load report these; the attempts' details and the notes show them.
#pragma once

namespace cushim {
namespace detail {
namespace {
namespace words {

constexpr const char* no_longer_regular_file = "it is now not a regular file (FIFO, device or socket)";
constexpr const char* file_replaced = "another file is at its path now, or it was rewritten";
constexpr const char* file_being_written = "another process has it open for writing: it is being written now";
constexpr const char* loader_mapped_another_file =
    "the system loader mapped another file than the one cushim held: another file was put at its path";
constexpr const char* fifo_wait_ended =
    "the system loader waited on a FIFO for a writer that never comes (one put at its path, or where it "
    "looks for a library this one needs), and cushim ended the wait";

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
