// The framing SHA-1, SHA-256 and SHA-512 share (FIPS 180-4 §5): the message fed in pieces is cut into whole
// blocks for the hash's compression function, and ended with its padding and its length in bits.

/// The blocks of a message being hashed: what is left over between pieces, and the length so far.
struct HashBlocks: Sendable {
    /// The block size in bytes: 64 (SHA-1, SHA-256) or 128 (SHA-384/512).
    private let size: Int
    private var buffer: [UInt8]
    private var buffered = 0
    private var length: UInt64 = 0

    init(size: Int) {
        self.size = size
        buffer = [UInt8](repeating: 0, count: size)
    }

    /// Feeds `bytes`, handing each run of whole blocks to `compress` with `state` (the run's start and its
    /// number of blocks); a partial block waits for the next piece.
    mutating func feed<State>(
        _ bytes: UnsafeRawBufferPointer, into state: inout State,
        _ compress: (inout State, UnsafePointer<UInt8>, Int) -> Void
    ) {
        guard var pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var remaining = bytes.count
        length &+= UInt64(remaining)
        if buffered > 0 {
            let take = min(size - buffered, remaining)
            buffer.withUnsafeMutableBufferPointer {
                $0.baseAddress!.advanced(by: buffered).update(from: pointer, count: take)
            }
            buffered += take
            pointer += take
            remaining -= take
            guard buffered == size else { return }
            buffer.withUnsafeBufferPointer { compress(&state, $0.baseAddress!, 1) }
            buffered = 0
        }
        let blocks = remaining / size
        if blocks > 0 {
            compress(&state, pointer, blocks)
            pointer += blocks * size
            remaining -= blocks * size
        }
        if remaining > 0 {
            buffer.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: pointer, count: remaining) }
            buffered = remaining
        }
    }

    /// Ends the message in `state`: 0x80, zeros, and the length in bits big-endian in the block's last eighth
    /// (8 bytes for 64-byte blocks, 16 for 128-byte ones, the high 8 of those zero).
    func finish<State>(_ state: inout State, _ compress: (inout State, UnsafePointer<UInt8>, Int) -> Void) {
        var copy = self
        let lengthField = size / 8
        let padTo =
            (buffered + 1) % size <= size - lengthField
            ? size - lengthField - (buffered + 1) % size : 2 * size - lengthField - (buffered + 1) % size
        var padding: [UInt8] = [0x80] + [UInt8](repeating: 0, count: padTo + lengthField - 8)
        let bitLength = length &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        padding.withUnsafeBytes { copy.feed($0, into: &state, compress) }
    }
}
