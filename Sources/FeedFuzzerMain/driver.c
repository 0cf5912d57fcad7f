// SwiftPM links an executable target's entry point as `<Target>_main`, so libFuzzer's own main() is never pulled
// in. This one hands control to libFuzzer with the Swift entry point, LLVMFuzzerTestOneInput (FeedFuzzer.swift).
#include <stddef.h>
#include <stdint.h>
#include "feedfuzzermain.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int FeedFuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
