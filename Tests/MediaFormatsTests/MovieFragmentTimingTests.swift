import Testing
@testable import MediaFormats

/// fMP4 boxes built here byte by byte (ISO/IEC 14496-12 §8.8), read back by
/// `MovieFragmentTiming`: where each track's fragments start and end on its decode timeline.
@Suite struct MovieFragmentTimingTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    static func be64(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A `traf` of `track`: tfhd (with a default duration when given), tfdt (version 1 when the
    /// time needs 64 bits), and a trun with per-sample durations, or `count` samples without.
    static func traf(
        track: UInt32, tfdt: UInt64, durations: [UInt32]? = nil, count: UInt32 = 0, tfhdDefault: UInt32? = nil
    ) -> [UInt8] {
        let tfhdFlags: UInt32 = tfhdDefault == nil ? 0x020000 : 0x020008
        let tfhd = box("tfhd", be32(tfhdFlags) + be32(track) + (tfhdDefault.map(be32) ?? []))
        let wide = tfdt > UInt64(UInt32.max)
        let tfdtBox = box("tfdt", (wide ? [1, 0, 0, 0] + be64(tfdt) : [0, 0, 0, 0] + be32(UInt32(tfdt))))
        let trun: [UInt8]
        if let durations {
            // data-offset, sample duration and sample size present.
            trun = box(
                "trun",
                be32(0x000301) + be32(UInt32(durations.count)) + be32(0) + durations.flatMap { be32($0) + be32(100) })
        } else {
            trun = box("trun", be32(0x000201) + be32(count) + be32(0) + (0..<count).flatMap { _ in be32(100) })
        }
        return box("traf", tfhd + tfdtBox + trun)
    }

    static func segment(_ trafs: [[UInt8]]...) -> [UInt8] {
        trafs.flatMap { fragment in
            box("moof", box("mfhd", be32(0) + be32(1)) + fragment.flatMap { $0 })
                + box("mdat", [UInt8](repeating: 0, count: 300))
        }
    }

    static func initSection(trex: [(track: UInt32, duration: UInt32)]) -> [UInt8] {
        box("ftyp", Array("iso6".utf8) + be32(0))
            + box(
                "moov",
                box("mvhd", [UInt8](repeating: 0, count: 100))
                    + box(
                        "mvex",
                        trex.flatMap {
                            box("trex", be32(0) + be32($0.track) + be32(1) + be32($0.duration) + be32(0) + be32(0))
                        }))
    }

    static func tracks(_ bytes: [UInt8], defaults: [UInt32: UInt32] = [:]) -> [MovieFragmentTiming.Track] {
        MovieFragmentTiming.tracks(in: ByteCursor(InMemoryBytes(bytes)), defaultDurations: defaults)
    }

    @Test func aFragmentEndsAtItsDecodeTimePlusItsSampleDurations() {
        let bytes = Self.segment([Self.traf(track: 1, tfdt: 12_800, durations: [512, 512, 513])])
        #expect(Self.tracks(bytes) == [.init(trackID: 1, start: 12_800, end: 14_337)])
    }

    @Test func durationsComeFromTheTrackFragmentHeaderElseFromTheInitSection() {
        let defaults = MovieFragmentTiming.defaultDurations(
            initSection: Self.initSection(trex: [(1, 1024), (2, 3000)])[...])
        #expect(defaults == [1: 1024, 2: 3000])
        let bytes = Self.segment([
            Self.traf(track: 1, tfdt: 0, count: 45), Self.traf(track: 2, tfdt: 90_000, count: 10, tfhdDefault: 3003),
        ])
        let expected: [MovieFragmentTiming.Track] = [
            .init(trackID: 1, start: 0, end: 46_080), .init(trackID: 2, start: 90_000, end: 120_030),
        ]
        #expect(Self.tracks(bytes, defaults: defaults) == expected)
        // Without a default anywhere the duration is unknown: no answer rather than a wrong one.
        #expect(Self.tracks(Self.segment([Self.traf(track: 1, tfdt: 0, count: 45)])).isEmpty)
    }

    @Test func severalFragmentsOfATrackSpanFromTheFirstToTheEndOfTheLast() {
        let bytes = Self.segment(
            [Self.traf(track: 1, tfdt: 5_000_000_000, durations: [1000, 1000])],
            [Self.traf(track: 1, tfdt: 5_000_002_000, durations: [1000])])
        #expect(Self.tracks(bytes) == [.init(trackID: 1, start: 5_000_000_000, end: 5_000_003_000)])
    }

    /// Every prefix of a valid segment and of a valid init section, and a `trun` that claims more
    /// samples than it holds: no trap, no hang, and never a span its bytes do not give.
    @Test func cutOrLyingBoxesNeverTrapAndGiveNoSpanTheyDoNotHold() {
        let bytes = Self.segment(
            [Self.traf(track: 1, tfdt: 7, durations: [10, 20])], [Self.traf(track: 2, tfdt: 9, durations: [5])])
        let whole: [MovieFragmentTiming.Track] = [
            .init(trackID: 1, start: 7, end: 37), .init(trackID: 2, start: 9, end: 14),
        ]
        #expect(Self.tracks(bytes) == whole)
        for length in 0...bytes.count {
            let found = Self.tracks(Array(bytes.prefix(length)))
            #expect(found.allSatisfy(whole.contains))
        }
        let header = Self.initSection(trex: [(1, 1024)])
        for length in 0...header.count {
            #expect(
                MovieFragmentTiming.defaultDurations(initSection: header.prefix(length)).allSatisfy { $0 == (1, 1024) })
        }
        var lying = Self.traf(track: 1, tfdt: 0, durations: [10])
        // The sample count (after trun's size, type, version and flags) says a billion.
        let trun = lying.indices.first { Array(lying[$0..<min($0 + 4, lying.count)]) == Array("trun".utf8) }!
        lying.replaceSubrange(trun + 8..<trun + 12, with: Self.be32(1_000_000_000))
        #expect(Self.tracks(Self.segment([lying])).isEmpty)
    }
}
