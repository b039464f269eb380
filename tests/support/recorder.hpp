// What the recording fixture library keeps of the last call it received; the round-trip test
// reads it through dlsym. Shared by both sides so the layout cannot drift.
#pragma once

#include <cstddef>

struct recorded_call {
  char name[64];
  int arg_count;
  std::size_t arg_size[48];
  unsigned char args[48][128];  // ncclUniqueId, passed by value, is 128 bytes
  std::size_t result_size;
  unsigned char result[64];
};

constexpr const char* recorder_symbol = "cushim_recorder_last_call";
constexpr const char* recorder_switch_symbol = "cushim_recorder_active";
