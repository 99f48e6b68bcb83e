// Implementation of file_bytes.h.
#include "file_bytes.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "validation/error.h"

namespace ibd::bench {

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
    Location at;
    at.file = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error("cannot read " + path + ": is a directory", at);
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error("cannot open " + path, at);
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) throw Error("cannot read " + path, at);
    return data;
}

}  // namespace ibd::bench
