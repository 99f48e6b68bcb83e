// Errors raised by the engine on bad input. One type, carrying where the problem is, so that
// every message names the block, transaction, input and byte offset it concerns.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ibd {

/** Where in the input a problem was found. Fields left at -1 / empty are unknown or not
 *  applicable; to_string() prints only the known ones. */
struct Location {
    std::string file;        // e.g. ".../mainnet/170/block.raw"; set by whoever knows it
    std::string block_hash;  // display hex (byte-reversed), once the header is parsed
    int64_t tx_index = -1;     // index of the transaction in the block (0 = coinbase)
    int64_t input_index = -1;  // index of the input within its transaction
    int64_t byte_offset = -1;  // offset in the file / buffer being parsed

    /** "file F, block H, tx T, input I, byte B" with the unknown parts left out. */
    std::string to_string() const;
};

/** Thrown for malformed or inconsistent input (never for an invalid signature, which is a
 *  verdict, not an error). what() is "<reason> (at <location>)". */
class Error : public std::runtime_error {
public:
    Error(std::string reason, Location where);
    const std::string& reason() const { return reason_; }
    const Location& where() const { return where_; }
    /** Returns a copy with the unknown fields of the location filled from `outer`. */
    Error with_context(const Location& outer) const;

private:
    std::string reason_;
    Location where_;
};

}  // namespace ibd
