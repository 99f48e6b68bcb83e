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
    int64_t output_index = -1; // index of the output within its transaction
    int64_t byte_offset = -1;  // offset in the file / buffer being parsed

    /** "file F, block H, tx T, input I, output O, byte B" with the unknown parts left out. */
    std::string to_string() const;
};

/** A consensus rule a block breaks, as Bitcoin Core reports it: its reject reason
 *  ("bad-blk-sigops"), the validation stage whose check found it ("CheckBlock",
 *  "ContextualCheckBlockHeader", "ContextualCheckBlock", "CheckTxInputs", "ConnectBlock": the
 *  Core function the check sits in), a detail in the engine's words (the numbers involved) and
 *  where: tx, and the input or output at fault where there is one. */
struct RuleFailure {
    std::string reject_reason;
    std::string stage;
    std::string detail;
    Location where;
    /** "<reject_reason>: <detail>" ("<reject_reason>" alone when detail is empty). */
    std::string message() const;
};

/** Thrown for malformed or inconsistent input (never for an invalid signature, which is a
 *  verdict, not an error), and for a block that breaks a rule of the stages that come before
 *  any input is connected (CheckBlock, ContextualCheckBlockHeader, ContextualCheckBlock; see
 *  validation/block_check.h): then stage() and reject_reason() are set. what() is
 *  "<reason> (at <location>)". */
class Error : public std::runtime_error {
public:
    Error(std::string reason, Location where);
    /** reason() = failure.message(), with its stage and reject reason. */
    explicit Error(const RuleFailure& failure);
    const std::string& reason() const { return reason_; }
    const Location& where() const { return where_; }
    /** Core's reject reason and the stage that found it; both empty unless the input is a
     *  block breaking a consensus rule. */
    const std::string& reject_reason() const { return reject_reason_; }
    const std::string& stage() const { return stage_; }
    /** Returns a copy with the unknown fields of the location filled from `outer`. */
    Error with_context(const Location& outer) const;
    /** Returns a copy marked as breaking a consensus rule of `stage`, its reject reason being
     *  reason() up to the first ':' (the rules' reasons read "bad-...: detail" or "bad-..."). */
    Error with_stage(const std::string& stage) const;

private:
    std::string reason_;
    Location where_;
    std::string reject_reason_;
    std::string stage_;
};

}  // namespace ibd
