// Where a block validation's time goes, by stage, measured inside the engine (so in a worker
// when the engine runs in one): parse and block rules, sighash, script evaluation, signature
// verification. Plain counters: callers read a steady clock around each piece of work
// (MonotonicNanos), without RAII timers, which under Emscripten's JS exception handling would
// put every enclosed call through an invoke_ trampoline.
#pragma once

#include <chrono>
#include <cstdint>

namespace ibd {

/** Nanoseconds spent per stage. script_ns excludes the sighash and verify time spent inside
 *  the evaluation. */
struct StageTimes {
    int64_t spent_ns = 0;    // decoding the binary spent outputs (ParseSpentOutputsBinary), when given so
    int64_t parse_ns = 0;    // ParseBlock, the block rules, aligning the spent outputs
    int64_t sighash_ns = 0;  // PrecomputedTxData and every sighash computed
    int64_t script_ns = 0;   // VerifyScript, minus the sighash and verify time inside it
    int64_t verify_ns = 0;   // signature verification on this thread (VerifyMode::kSynchronous)
    /** sighash_ns by kind: [0] legacy, [1] BIP143, [2] BIP341 (key path and tapscript); each
     *  with its transactions' PrecomputedTxData (a transaction spending a v1 witness output
     *  counts as BIP341, one with other witnesses as BIP143, the others as legacy). Sums to
     *  sighash_ns. */
    int64_t sighash_kind_ns[3] = {0, 0, 0};
};

/** std::chrono::steady_clock in nanoseconds (performance.now() under Emscripten). */
inline int64_t MonotonicNanos() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace ibd
