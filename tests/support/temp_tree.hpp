// A unique temporary folder, removed with everything in it when the object goes out of scope.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_support {

class temp_tree {
 public:
  temp_tree() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && base[0] == '/' ? base : "/tmp") + "/cushim-test-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::runtime_error(pattern + ": " + std::strerror(errno));
    // Canonical, so paths built here match what /proc/self/exe reports for a program copied in.
    root_ = std::filesystem::canonical(buf.data()).string();
  }
  ~temp_tree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  temp_tree(const temp_tree&) = delete;
  temp_tree& operator=(const temp_tree&) = delete;

  const std::string& root() const { return root_; }

  // The absolute path of `relative` inside the tree (the root itself for "").
  std::string path(const std::string& relative) const { return relative.empty() ? root_ : root_ + "/" + relative; }

  std::string make_dirs(const std::string& relative) const {
    std::filesystem::create_directories(path(relative));
    return path(relative);
  }

  std::string write_file(const std::string& relative, const std::string& content) const {
    make_parent(relative);
    std::ofstream(path(relative), std::ios::binary | std::ios::trunc) << content;
    return path(relative);
  }

  // Copies the bytes and the permission bits, so a copied program stays executable.
  std::string copy_file(const std::string& from, const std::string& relative) const {
    make_parent(relative);
    std::filesystem::copy_file(from, path(relative), std::filesystem::copy_options::overwrite_existing);
    std::filesystem::permissions(path(relative), std::filesystem::status(from).permissions());
    return path(relative);
  }

  std::string symlink(const std::string& target, const std::string& relative) const {
    make_parent(relative);
    std::filesystem::create_symlink(target, path(relative));
    return path(relative);
  }

  std::string make_fifo(const std::string& relative) const {
    make_parent(relative);
    if (::mkfifo(path(relative).c_str(), 0644) != 0) {
      throw std::runtime_error(path(relative) + ": " + std::strerror(errno));
    }
    return path(relative);
  }

  // Removes a file, link or folder (recursively); takes a path relative to the tree or one it returned.
  void remove(const std::string& relative_or_returned) const {
    bool returned = relative_or_returned.rfind(root_ + "/", 0) == 0;
    std::filesystem::remove_all(returned ? relative_or_returned : path(relative_or_returned));
  }

 private:
  void make_parent(const std::string& relative) const {
    std::filesystem::create_directories(std::filesystem::path(path(relative)).parent_path());
  }

  std::string root_;
};

}  // namespace test_support
