import Testing
@testable import MediaInspection

/// Damaged input is a content problem: it yields facts (with `problem` set where libav or the
/// byte layout says so), never a crash or a thrown error.
struct DamagedSegmentTests {
    static let files = [
        "audio-aac.ts", "video-h264-aac.ts", "audio.aac", "audio-apic.mp3", "audio.ac3", "fmp4-seg0.m4s",
    ]

    enum Damage: String, CaseIterable, Sendable {
        case truncatedHalfway, bitFlipped, zeroLength, randomBytes, headerZeroed

        func apply(_ bytes: [UInt8]) -> [UInt8] {
            var generator = SplitMix64(seed: 42)
            switch self {
            case .truncatedHalfway: return Array(bytes.prefix(bytes.count / 2 + 7))
            case .zeroLength: return []
            case .randomBytes: return (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case .headerZeroed: return [UInt8](repeating: 0, count: min(1024, bytes.count)) + bytes.dropFirst(1024)
            case .bitFlipped:
                var damaged = bytes
                for _ in 0..<max(1, bytes.count / 200) {
                    let index = Int.random(in: 0..<damaged.count, using: &generator)
                    damaged[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                }
                return damaged
            }
        }
    }

    @Test(arguments: files, Damage.allCases)
    func damagedSegmentYieldsFactsNotACrash(_ file: String, damage: Damage) async throws {
        let bytes = damage.apply(try Fixtures.bytes(file))
        for streamInfo in [false, true] {
            let facts = try await SegmentInspector(source: MemorySource(files: [file: bytes])).inspect(
                SegmentRequest(uri: file, wantsStreamInfo: streamInfo))
            #expect(facts.byteCount == bytes.count)
            switch damage {
            case .zeroLength, .randomBytes:
                #expect(facts.problem != nil, "\(file) \(damage) \(facts)")
            case .truncatedHalfway where file.hasSuffix(".ts"):
                #expect(facts.problem != nil, "\(file) \(damage)")
            default:
                break
            }
        }
    }

    @Test func posterThatDoesNotDecodeIsReported() throws {
        let jpeg = try Fixtures.bytes("poster.jpg")
        let truncated = Array(jpeg.prefix(jpeg.count / 3))
        guard case .failure(let failure) = PosterDecoder.decode(truncated, mimeType: "image/jpeg") else {
            Issue.record("a JPEG cut to a third decoded")
            return
        }
        #expect(failure.description.contains("JPEG"))
        #expect(throws: Never.self) { _ = PosterDecoder.decode([0xFF, 0xD8, 0xFF], mimeType: "image/jpeg") }
        guard case .failure = PosterDecoder.decode(Array("GIF89a".utf8), mimeType: "image/gif") else {
            Issue.record("a GIF was accepted")
            return
        }
    }
}

/// Deterministic generator so damaged fixtures are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
