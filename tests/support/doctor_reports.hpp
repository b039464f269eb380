// The doctor's reports as the tests read them: --json flattened by Python's json module into
// "path=value" lines (a document it cannot parse fails the test), and --record's "key: value" lines.
#pragma once

#include <fstream>
#include <string>

#include "support/process.hpp"
#include "support/temp_tree.hpp"

namespace test_support {

// Every scalar of a JSON document as "path=value" lines (value as JSON, lists with ".length").
inline const char* flatten_json = R"(import json, sys
def walk(prefix, v):
    if isinstance(v, dict):
        for k, x in v.items(): walk(prefix + "." + k if prefix else k, x)
    elif isinstance(v, list):
        print(prefix + ".length=%d" % len(v))
        for i, x in enumerate(v): walk("%s[%d]" % (prefix, i), x)
    else:
        print(prefix + "=" + json.dumps(v))
walk("", json.load(open(sys.argv[1], encoding="utf-8")))
)";

inline key_values parsed_json(const std::string& json_text) {
  temp_tree tree;
  std::string file = tree.write_file("report.json", json_text);
  process_spec spec;
  spec.program = CUSHIM_PYTHON;
  spec.args = {"-c", flatten_json, file};
  spec.env = clean_environment();
  process_result r = run_process(spec);
  INFO("python: " << r.err);
  REQUIRE(r.exit_code == 0);
  return parse_key_values(r.out);
}

// The "key: value" lines of a --record file.
inline key_values record_lines(const std::string& path) {
  std::ifstream in(path);
  key_values kv;
  for (std::string line; std::getline(in, line);) {
    std::size_t colon = line.find(": ");
    if (colon != std::string::npos && line[0] != '#')
      kv.items.emplace_back(line.substr(0, colon), line.substr(colon + 2));
  }
  return kv;
}

inline std::string as_json(const std::string& s) { return "\"" + s + "\""; }

}  // namespace test_support
