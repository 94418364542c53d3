import Testing
import MediaFormats

/// Inputs that made a fuzz target (Fuzz/, `make fuzz`) or its review trap, fed to the same API.
@Suite("Fuzzing regressions: MediaFormats")
struct MediaFormatsFuzzRegressionTests {
    /// emsg v1, timescale 2, presentation_time 409 927 646 082 435: the whole seconds times
    /// 90 000 fit in 64 bits, adding the fraction's ticks did not (UInt64 overflow trap in
    /// presentationTime90k) — `hlscheck check` and `inspect` stopped on such a segment.
    static let overflowingEventMessage = EventMessageBox(
        version: 1, timescale: 2, presentationTime: 409_927_646_082_435,
        messageData: ID3Tag(frames: [.privateData(owner: "fuzz", data: [1])]).serialized())

    @Test("an emsg time past 64 bits in 90 kHz ticks gives no timestamp instead of trapping")
    func emsgTimeOverflowHasNoTimestamp() {
        #expect(Self.overflowingEventMessage.presentationTime90k == nil)
        let found = EmbeddedID3.tags(in: Self.overflowingEventMessage.serialized(), container: .fragmentedMP4)
        #expect(found.count == 1)
        #expect(found.first?.tag != nil)
        #expect(found.first?.pts90k == nil)
    }

    @Test("the largest representable emsg time still converts exactly")
    func emsgTimeAtTheLimitConverts() {
        let atLimit = EventMessageBox(
            version: 1, timescale: 90_000, presentationTime: UInt64(Int64.max), messageData: [])
        #expect(atLimit.presentationTime90k == Int64.max)
        let halfTicks = EventMessageBox(version: 1, timescale: 2, presentationTime: 3, messageData: [])
        #expect(halfTicks.presentationTime90k == 135_000)
    }
}
