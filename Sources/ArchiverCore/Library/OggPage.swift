// Ogg pages (RFC 3533): their fields, bytes and CRC, and a page renumbered in place, for the library's Ogg copies
// (`OggTag` lays the header pages out; `LibraryCopier` renumbers the pages after them as it copies).
import Foundation

enum OggPage {
    /// One page's fields (`RFC 3533`).
    struct Fields: Equatable {
        var flags: UInt8
        var granule: UInt64
        var serial: UInt32
        var sequence: UInt32
        var lacing: [UInt8]
        var body: [UInt8]
    }

    /// The page's bytes, its CRC computed.
    static func encode(_ page: Fields) -> [UInt8] {
        var bytes = Array("OggS".utf8) + [0, page.flags]
        bytes += (0..<8).map { UInt8((page.granule >> (8 * $0)) & 0xFF) }
        bytes += littleEndian(Int(page.serial)) + littleEndian(Int(page.sequence)) + [0, 0, 0, 0]
        bytes += [UInt8(page.lacing.count)] + page.lacing + page.body
        let crc = crc32(bytes)
        for byte in 0..<4 { bytes[22 + byte] = UInt8((crc >> (8 * byte)) & 0xFF) }
        return bytes
    }

    /// The length of the page whose first bytes (at least 27, and its lacing values) are `head`, or nil.
    static func pageLength(_ head: [UInt8]) -> Int? {
        guard head.count >= 27, head.starts(with: Array("OggS".utf8)), head[4] == 0 else { return nil }
        let count = Int(head[26])
        guard head.count >= 27 + count else { return nil }
        return 27 + count + head[27..<(27 + count)].reduce(0) { $0 + Int($1) }
    }

    static func parse(_ raw: [UInt8]) -> Fields? {
        guard let length = pageLength(raw), raw.count == length else { return nil }
        let count = Int(raw[26])
        return Fields(
            flags: raw[5], granule: raw[6..<14].reversed().reduce(0) { $0 << 8 | UInt64($1) },
            serial: UInt32(raw[14..<18].reversed().reduce(0) { $0 << 8 | Int($1) }),
            sequence: UInt32(raw[18..<22].reversed().reduce(0) { $0 << 8 | Int($1) }),
            lacing: Array(raw[27..<(27 + count)]), body: Array(raw[(27 + count)...]))
    }

    /// The page at the start of `raw` with its sequence number moved by `delta` and its CRC made again, when it is
    /// of `serial`.
    static func renumber(_ raw: inout [UInt8], at offset: Int, length: Int, serial: UInt32, delta: Int64) {
        let pageSerial = UInt32(raw[(offset + 14)..<(offset + 18)].reversed().reduce(0) { $0 << 8 | Int($1) })
        guard pageSerial == serial, delta != 0 else { return }
        let sequence = Int64(raw[(offset + 18)..<(offset + 22)].reversed().reduce(0) { $0 << 8 | Int($1) }) + delta
        for byte in 0..<4 {
            raw[offset + 18 + byte] = UInt8((UInt64(bitPattern: sequence) >> (8 * UInt64(byte))) & 0xFF)
            raw[offset + 22 + byte] = 0
        }
        let crc = crc32(raw[offset..<(offset + length)])
        for byte in 0..<4 { raw[offset + 22 + byte] = UInt8((crc >> (8 * byte)) & 0xFF) }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? value << 1 ^ 0x04C1_1DB7 : value << 1 }
        return value
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at 0.
    static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        bytes.reduce(UInt32(0)) { $0 << 8 ^ table[Int(($0 >> 24) ^ UInt32($1))] }
    }

    static func littleEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
