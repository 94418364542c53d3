import HLSPlaylist
import Testing

/// Numbers from files (docs/security.md): a value outside hlscheck's accepted range is a located
/// playlist-syntax error, and the model then holds no value, so nothing downstream computes with it.
@Suite("Parser: out-of-range numbers")
struct NumberBoundsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The playlist; the offending value is on `line`, starting at `column`.
        var text: String
        var line: Int
        var column: Int
        /// True when the model holds no value for it afterwards.
        var isAbsent: @Sendable (Playlist) -> Bool

        var testDescription: String { name }
    }

    static let fourHundredDigits = String(repeating: "9", count: 400)
    static let tiny = "0." + String(repeating: "0", count: 29) + "1"

    static func media(_ extinf: String) -> Case {
        Case(
            name: "EXTINF:\(extinf.prefix(20))",
            text: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:\(extinf),\na.ts\n#EXTINF:6,\nb.ts\n",
            line: 4, column: 9,
            isAbsent: { $0.media?.segments.first?.duration == 0 && $0.media?.segments.count == 2 })
    }

    static func variant(_ attributes: String, column: Int, isAbsent: @escaping @Sendable (VariantStream?) -> Bool)
        -> Case
    {
        Case(
            name: attributes, text: "#EXTM3U\n#EXT-X-STREAM-INF:\(attributes)\na.m3u8\n", line: 2, column: column,
            isAbsent: { isAbsent($0.multivariant?.variants.first) })
    }

    static let cases: [Case] = [
        media(tiny), media("-1.5"), media("100000000000000000"), media("100000000000000000000"),
        media("400000000000000000000000"), media(fourHundredDigits), media("1000000.5"),
        variant("BANDWIDTH=9223372036854775807", column: 19) { $0?.bandwidth == nil },
        variant("BANDWIDTH=18446744073709551615", column: 19) { $0?.bandwidth == nil },
        variant("BANDWIDTH=1000,AVERAGE-BANDWIDTH=1000000000001", column: 34) {
            $0?.averageBandwidth == nil && $0?.bandwidth == 1000
        },
        variant("BANDWIDTH=1000,RESOLUTION=9223372036854775807x2", column: 34) { $0?.resolution == nil },
        variant("BANDWIDTH=1000,RESOLUTION=99999999999999999999x2", column: 34) { $0?.resolution == nil },
        variant("BANDWIDTH=1000,RESOLUTION=0x0", column: 34) { $0?.resolution == nil },
        variant("BANDWIDTH=1000,FRAME-RATE=\(fourHundredDigits)", column: 34) { $0?.frameRate == nil },
        variant("BANDWIDTH=1000,FRAME-RATE=100000", column: 34) { $0?.frameRate == nil },
        Case(
            name: "EXT-X-TARGETDURATION:10000000000",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10000000000\n#EXTINF:6,\na.ts\n",
            line: 2, column: 23, isAbsent: { $0.media?.targetDuration == nil }),
        Case(
            name: "EXT-X-MEDIA-SEQUENCE:2^63-1",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:6,\na.ts\n",
            line: 3, column: 23, isAbsent: { $0.media?.segments.first?.mediaSequence == 0 }),
        Case(
            name: "PART-TARGET:1e400 written out",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART-INF:PART-TARGET=\(fourHundredDigits).5\n",
            line: 3, column: 17, isAbsent: { $0.media?.partTarget == nil }),
        Case(
            name: "EXT-X-START TIME-OFFSET:-400 digits",
            text: "#EXTM3U\n#EXT-X-START:TIME-OFFSET=-\(fourHundredDigits)\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n",
            line: 2, column: 14, isAbsent: { $0.multivariant?.start?.timeOffset == nil }),
        Case(
            name: "EXT-X-BYTERANGE offset+length overflows",
            text:
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807\n#EXTINF:6,\na.ts\n",
            line: 4, column: 18, isAbsent: { $0.media?.segments.first?.byteRange == nil }),
        Case(
            name: "EXT-X-BYTERANGE ends beyond 2^53",
            text:
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:9007199254740991@1\n#EXTINF:6,\na.ts\n",
            line: 4, column: 18, isAbsent: { $0.media?.segments.first?.byteRange == nil }),
    ]

    @Test("an out-of-range value is a located error and is then absent", arguments: cases)
    func rejectsOutOfRangeValue(_ c: Case) throws {
        let playlist = PlaylistParser.parse(c.text, uri: "bounds.m3u8")
        let problem = try #require(
            playlist.errors.first { $0.location.line == c.line && $0.kind == .syntax },
            "no error on line \(c.line): \(playlist.problems.map(\.message))")
        #expect(problem.location.column == c.column)
        #expect(problem.location.uri == "bounds.m3u8")
        // The message says what is accepted, and never quotes a 400-digit number whole.
        #expect(problem.message.contains("accepts") || problem.message.contains("must not be negative"))
        #expect(problem.message.count < 300)
        #expect(c.isAbsent(playlist), "the rejected value reached the model")
    }

    @Test func acceptsValuesAtTheLimits() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:1000000
            #EXT-X-MEDIA-SEQUENCE:9007199254740991
            #EXTINF:1000000,
            a.ts
            #EXTINF:0.000011,
            b.ts
            #EXT-X-BYTERANGE:1@9007199254740990
            #EXTINF:0,
            c.ts

            """
        let playlist = PlaylistParser.parse(text, uri: "limits.m3u8")
        #expect(playlist.errors.isEmpty, "\(playlist.errors.map(\.message))")
        #expect(playlist.media?.segments.map(\.duration) == [1_000_000, 0.000011, 0])
        #expect(playlist.media?.segments.last?.byteRange == ByteRange(length: 1, offset: 9_007_199_254_740_990))
        let multivariant = PlaylistParser.parse(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000000000000,RESOLUTION=65535x65535,FRAME-RATE=1000\na.m3u8\n",
            uri: "m")
        #expect(multivariant.errors.isEmpty)
        #expect(multivariant.multivariant?.variants.first?.bandwidth == 1_000_000_000_000)
    }

    /// Offsetless byte ranges continue the previous one: a chain of them must stop (with an
    /// error) at the limit instead of overflowing an Int.
    @Test func rejectsChainedByteRangesPastTheLimit() {
        var text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n"
        for _ in 0..<3 { text += "#EXT-X-BYTERANGE:4000000000000000\n#EXTINF:6,\na.ts\n" }
        var parts = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART-INF:PART-TARGET=1\n"
        for _ in 0..<3 { parts += "#EXT-X-PART:DURATION=1,URI=\"p.mp4\",BYTERANGE=\"4000000000000000\"\n" }
        let segments = PlaylistParser.parse(text, uri: "chain.m3u8")
        #expect(
            segments.errors.contains {
                $0.location.line == 10 && $0.message.contains("ends beyond byte 9007199254740991")
            })
        #expect(segments.media?.segments.map { $0.byteRange != nil } == [true, true, false])
        let partial = PlaylistParser.parse(parts, uri: "parts.m3u8")
        #expect(partial.errors.contains { $0.location.line == 7 && $0.message.contains("ends beyond byte") })
        #expect(partial.media?.trailingParts.map { $0.byteRange != nil } == [true, true, false])
    }
}

/// Linear work: inputs megabytes long parse into the right model with a bounded number of
/// problems. Not timed: the figures are in docs/security.md; here the *amount* of output is what
/// would grow if the parser went quadratic or echoed its input into messages.
@Suite("Parser: linear work on huge input")
struct LinearWorkTests {
    @Test func hugeAttributeListKeepsEveryAttributeAndFewProblems() throws {
        let count = 200_000
        var line = "#EXT-X-STREAM-INF:BANDWIDTH=1000"
        for index in 0..<count { line += ",X-A\(index)=\(index)" }
        #expect(line.utf8.count > 2_000_000)
        let playlist = PlaylistParser.parse("#EXTM3U\n\(line)\na.m3u8\n", uri: "huge.m3u8")
        let variant = try #require(playlist.multivariant?.variants.first)
        #expect(variant.attributes.attributes.count == count + 1)
        #expect(variant.attributes.attributes.last?.rawValue == "\(count - 1)")
        #expect(variant.bandwidth == 1000)
        #expect(playlist.problems.isEmpty)
    }

    @Test func twoMillionCommasGiveABoundedReport() {
        let line = "#EXT-X-STREAM-INF:BANDWIDTH=1000" + String(repeating: ",", count: 2_000_000)
        let playlist = PlaylistParser.parse("#EXTM3U\n\(line)\na.m3u8\n", uri: "commas.m3u8")
        // 20 problems for the line, then one that counts the rest.
        #expect(playlist.problems.count == ValueLimits.maximumProblemsPerLine + 1)
        #expect(playlist.problems.last?.message.contains("1999979 more problems on this line") == true)
        #expect(playlist.problems.allSatisfy { $0.location.line == 2 })
        #expect(playlist.multivariant?.variants.first?.bandwidth == 1000)
    }

    @Test func hugeValueIsNotEchoedIntoMessages() {
        let value = String(repeating: "a", count: 2_000_000)
        let playlist = PlaylistParser.parse(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=\(value)\na.m3u8\n", uri: "value.m3u8")
        #expect(playlist.errors.count == 1)
        #expect(playlist.problems.allSatisfy { $0.message.utf8.count < 300 })
    }

    @Test func hundredThousandSegments() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n"
        for index in 0..<100_000 { text += "#EXTINF:6.000,\nsegment\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        #expect(text.utf8.count > 2_000_000)
        let playlist = PlaylistParser.parse(text, uri: "long.m3u8")
        let media = try #require(playlist.media)
        #expect(playlist.problems.isEmpty)
        #expect(media.segments.count == 100_000)
        #expect(media.segments.last?.uri == "segment99999.ts")
        #expect(media.segments.last?.uriLine == 200_003)
        #expect(media.totalDuration == 600_000)
    }

    @Test func everyLineBrokenStopsAtTheFileLimit() {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        for _ in 0..<30_000 { text += "#EXTINF:x,\na.ts\n" }
        let playlist = PlaylistParser.parse(text, uri: "broken.m3u8")
        #expect(playlist.problems.count == ValueLimits.maximumProblemsPerFile + 1)
        #expect(playlist.problems.last?.message.contains("20000 more problems from this line on") == true)
        #expect(playlist.media?.segments.count == 30_000)
    }

    /// EXT-X-DEFINE values that reference each other ("billion laughs"): 21 KB would expand to
    /// 100 GB. Substitution stops at the budget with one located error.
    @Test func expandingDefinitionsStopAtTheBudget() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:6\n"
        text += "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"\(String(repeating: "x", count: 1000))\"\n"
        text += "#EXT-X-DEFINE:NAME=\"b\",VALUE=\"\(String(repeating: "{$a}", count: 1000))\"\n"
        text += "#EXT-X-DEFINE:NAME=\"c\",VALUE=\"\(String(repeating: "{$b}", count: 100))\"\n"
        for _ in 0..<1000 { text += "#EXTINF:6,\n{$c}\n" }
        let playlist = PlaylistParser.parse(text, uri: "laughs.m3u8")
        let media = try #require(playlist.media)
        let produced =
            media.segments.reduce(0) { $0 + $1.uri.utf8.count }
            + playlist.variables.values.reduce(0) { $0 + $1.utf8.count }
        // The budget, plus references left as written (at most the file's own size).
        #expect(produced <= 5 * text.utf8.count + ValueLimits.substitutionAllowance)
        let stops = playlist.errors.filter { $0.message.contains("variable substitution stops here") }
        #expect(stops.count == 1)
        #expect(stops.first?.location.line == 6)
        #expect(media.segments.count == 1000)
    }
}
