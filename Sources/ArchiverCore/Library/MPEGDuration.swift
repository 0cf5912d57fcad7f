// How long an MP3 plays, from its first frame: the frame count of a Xing/Info header where the encoder wrote one
// (VBR and LAME's CBR), else the first frame's bitrate over the audio's bytes. Used to end the last chapter and to
// clamp chapter times; nil when the bytes do not start with an MPEG audio frame.
import Foundation

enum MPEGDuration {
    private static let bitratesV1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let bitratesV2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    private static let rates = [44100, 48000, 32000]

    /// Milliseconds of audio in `audioBytes` bytes starting with `head` (the first bytes after the ID3 tags).
    static func milliseconds(head: [UInt8], audioBytes: Int64) -> UInt32? {
        guard head.count >= 4, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else { return nil }
        let version = (head[1] >> 3) & 3  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
        let layer = (head[1] >> 1) & 3  // 1: Layer III
        let bitrateIndex = Int(head[2] >> 4)
        let rateIndex = Int((head[2] >> 2) & 3)
        guard version != 1, layer == 1, bitrateIndex > 0, bitrateIndex < 15, rateIndex < 3 else { return nil }
        let rate = rates[rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let samplesPerFrame = version == 3 ? 1152 : 576
        let mono = head[3] >> 6 == 3
        let sideInfo = version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        let xing = 4 + sideInfo
        if head.count >= xing + 12 {
            let marker = String(decoding: head[xing..<(xing + 4)], as: UTF8.self)
            if marker == "Xing" || marker == "Info", head[xing + 7] & 1 != 0 {
                let frames = head[(xing + 8)..<(xing + 12)].reduce(0) { $0 << 8 | Int($1) }
                // Its byte count, where it has one, must be the file's (within a tenth): files joined end to end
                // keep the first one's header, which then tells only of the first.
                let bytesAt = xing + 12
                let counted =
                    head[xing + 7] & 2 != 0 && head.count >= bytesAt + 4
                    ? Int64(head[bytesAt..<(bytesAt + 4)].reduce(0) { $0 << 8 | Int($1) }) : audioBytes
                if abs(counted - audioBytes) <= audioBytes / 10 {
                    return clamp(Double(frames) * Double(samplesPerFrame) * 1000 / Double(rate))
                }
            }
        }
        let bitrate = (version == 3 ? bitratesV1 : bitratesV2)[bitrateIndex] * 1000
        return clamp(Double(audioBytes) * 8 * 1000 / Double(bitrate))
    }

    private static func clamp(_ value: Double) -> UInt32? {
        value.isFinite && value >= 0 ? UInt32(min(value, Double(UInt32.max - 1))) : nil
    }
}
