// Shared helpers of the native test suites: where the fixtures are, and file reading.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ibd::test {

/** The blocks-fixtures folder: $IBD_FIXTURES when set and non-empty, else the compile-time
 *  default IBD_DEFAULT_FIXTURES (../shared/blocks-fixtures beside the repo). No trailing slash. */
std::string FixturesDir();

/** FixturesDir() + "/" + relative. */
std::string FixturePath(const std::string& relative);

/** Whole file as bytes / text. Throw std::runtime_error naming the path when it cannot be read. */
std::vector<uint8_t> ReadFileBytes(const std::string& path);
std::string ReadFile(const std::string& path);

/** ReadFile + nlohmann::json::parse. */
nlohmann::json ReadJsonFile(const std::string& path);

}  // namespace ibd::test

namespace ibd {
// The suites live in namespace ibd and call these unqualified.
using test::FixturePath;
using test::FixturesDir;
using test::ReadFile;
using test::ReadFileBytes;
using test::ReadJsonFile;
}  // namespace ibd
