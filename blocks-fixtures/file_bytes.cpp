// Implementation of file_bytes.h.
#include "file_bytes.h"

#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>

#include "validation/error.h"

namespace ibd::fixtures {

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
    Location at;
    at.file = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error("cannot read " + path + ": is a directory", at);
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error("cannot open " + path, at);
    std::vector<uint8_t> data;
    // libstdc++ reports some read errors as exceptions from the stream buffer: named here too.
    try {
        data.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        throw Error("cannot read " + path + ": " + e.what(), at);
    }
    if (f.bad()) throw Error("cannot read " + path, at);
    return data;
}

}  // namespace ibd::fixtures
