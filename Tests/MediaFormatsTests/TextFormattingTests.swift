import Foundation
import MediaFormats
import Testing

/// The Foundation-free stand-ins give what swift-corelibs-foundation gives for the same input:
/// report paths, timestamps and messages read as they did before.
@Suite struct TextFormattingTests {
    static let paths = [
        "", "/", "/a", "/a/", "/a/b", "/a/b/", "a/b", "a/b/", "ab/", "./a", "../a", "a/./b", "a//b", "/a//b//",
        ".hidden", "a.txt", "a.b.c", "a.", "dir.d/file", "dir.d/", "x/.m3u8", "seg.M3U8", "ab", "/ab", "x/a",
        "Stream #1/v0 index.m3u8",
    ]

    @Test(arguments: paths) func pathArithmeticIsNSStrings(_ path: String) {
        for name in ["", "b", "/b", "b/", "../c", "seg 1.ts"] {
            #expect(PathString.join(path, name) == (path as NSString).appendingPathComponent(name), "\(path) + \(name)")
        }
        #expect(PathString.parent(path) == (path as NSString).deletingLastPathComponent, "\(path)")
        #expect(PathString.lastComponent(path) == (path as NSString).lastPathComponent, "\(path)")
        #expect(PathString.pathExtension(path) == (path as NSString).pathExtension, "\(path)")
    }

    /// Where NSString traps (a one-character relative path), the folder is the empty path.
    @Test func theParentOfAOneLetterNameIsEmpty() {
        #expect(PathString.parent("a") == "")
        #expect(PathString.parent("a/") == "")
        #expect(PathString.lastComponent("a") == "a")
    }

    @Test(arguments: [0.0, 0.05, 0.25, 1.5, -0.04, 2.675, 12345.6789, 1e21, .infinity, -.infinity])
    func fixedPointIsPrintfs(_ value: Double) {
        for decimals in [0, 1, 3] {
            #expect(fixedPoint(value, decimals: decimals) == String(format: "%.\(decimals)f", value))
        }
    }

    @Test(arguments: [0.0, 1.2345, 1.9996, 951_782_400.5, 1_763_720_405.25, 1_763_720_459.9999, 4_102_444_800.0])
    func timestampsAreTheFormattersOnes(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let utc = try #require(TimeZone(identifier: "UTC"))
        let internet = ISO8601DateFormatter()
        internet.timeZone = utc
        internet.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // As the reporters call it: from the Date.
        let rounded = try #require(UTCTime(secondsSince1970: date.timeIntervalSince1970, roundingToMilliseconds: true))
        #expect(rounded.internetDateTimeWithMilliseconds == internet.string(from: date))

        let plain = ISO8601DateFormatter()
        plain.timeZone = utc
        plain.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        // Rounded to the millisecond, then shown to the second (the formatter's order).
        #expect(rounded.date + "T" + rounded.time == plain.string(from: date))
    }

    @Test(arguments: [" \t a b \r\n", "a b", "   ", "", "\u{3000}x\u{A0}", "\n\u{2028}x\u{85}\r", "x\r"])
    func trimmingIsCharacterSets(_ text: String) {
        #expect(text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingWhiteSpace(newlines: false) == text.trimmingCharacters(in: .whitespaces))
    }
}
