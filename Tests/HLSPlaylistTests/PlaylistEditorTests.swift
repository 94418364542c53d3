import HLSPlaylist
import Testing

@Suite("Editor")
struct PlaylistEditorTests {
    static let multivariant =
        "\u{FEFF}#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS=\"mp4a.40.2,avc1.4d401f\",AUDIO=\"a\"\r\nv.m3u8\r\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\r\na.m3u8"

    @Test func untouchedIsByteIdentical() {
        let bytes = Array(Self.multivariant.utf8)
        #expect(PlaylistEditor(bytes: bytes).bytes == bytes)
    }

    @Test func changesOneAttributeOnly() throws {
        var editor = PlaylistEditor(bytes: Array(Self.multivariant.utf8))
        try editor.setAttribute("BANDWIDTH", to: 64000, onTagAtLine: 2)
        #expect(editor.text == Self.multivariant.replacingOccurrences(of: "BANDWIDTH=128000", with: "BANDWIDTH=64000"))
        let p = PlaylistParser.parse(editor.bytes, uri: "m")
        #expect(p.multivariant?.variants.first?.bandwidth == 64000)
    }

    @Test func addsAbsentAttributeKeepingCRLF() throws {
        var editor = PlaylistEditor(bytes: Array(Self.multivariant.utf8))
        try editor.setAttribute("AVERAGE-BANDWIDTH", to: 60000, onTagAtLine: 2)
        try editor.setAttribute("BANDWIDTH", to: 52000, onTagAtLine: 4)
        let expected = Self.multivariant
            .replacingOccurrences(of: "AUDIO=\"a\"\r\n", with: "AUDIO=\"a\",AVERAGE-BANDWIDTH=60000\r\n")
            .replacingOccurrences(of: "CODECS=\"mp4a.40.2\"\r\n", with: "CODECS=\"mp4a.40.2\",BANDWIDTH=52000\r\n")
        #expect(editor.text == expected)
    }

    @Test func quotedCommasAreNotAttributeBoundaries() throws {
        var editor = PlaylistEditor("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"a,BANDWIDTH=1\",BANDWIDTH=5\nx\n")
        try editor.setAttribute("BANDWIDTH", to: 7, onTagAtLine: 2)
        #expect(editor.text == "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"a,BANDWIDTH=1\",BANDWIDTH=7\nx\n")
    }

    @Test func rejectsLinesThatAreNotTags() {
        var editor = PlaylistEditor(Self.multivariant)
        #expect(throws: PlaylistEditor.EditError.notAnAttributeTag(line: 3)) {
            try editor.setAttribute("BANDWIDTH", to: 1, onTagAtLine: 3)
        }
        #expect(throws: PlaylistEditor.EditError.lineOutOfRange(99)) {
            try editor.setAttribute("BANDWIDTH", to: 1, onTagAtLine: 99)
        }
        #expect(editor.bytes == Array(Self.multivariant.utf8))
    }

    @Test func insertsALineWithTheLineEndingOfTheLineBefore() throws {
        var editor = PlaylistEditor(bytes: Array(Self.multivariant.utf8))
        try editor.insertLine("#EXT-X-INDEPENDENT-SEGMENTS", afterLine: 1)
        #expect(
            editor.text
                == Self.multivariant.replacingOccurrences(
                    of: "#EXTM3U\r\n", with: "#EXTM3U\r\n#EXT-X-INDEPENDENT-SEGMENTS\r\n"))
        #expect(PlaylistParser.parse(editor.bytes, uri: "m").multivariant?.independentSegments == true)
    }

    @Test func insertsAfterALastLineWithoutLineEnding() throws {
        var editor = PlaylistEditor("#EXTM3U\n#EXT-X-ENDLIST")
        try editor.insertLine("#EXT-X-PLAYLIST-TYPE:VOD", afterLine: 2)
        #expect(editor.text == "#EXTM3U\n#EXT-X-ENDLIST\n#EXT-X-PLAYLIST-TYPE:VOD")
    }

    @Test func setsATagValueAndKeepsTheEXTINFTitle() throws {
        var editor = PlaylistEditor(
            "#EXTM3U\r\n#EXT-X-VERSION:2\r\n#EXT-X-TARGETDURATION:6\r\n#EXTINF:1.000000,first, really\r\na.ts\r\n")
        try editor.setTagValue("3", onTagAtLine: 2)
        try editor.setTagValue("7", onTagAtLine: 3)
        try editor.setTagValue("6.400", onTagAtLine: 4, upToComma: true)
        #expect(
            editor.text
                == "#EXTM3U\r\n#EXT-X-VERSION:3\r\n#EXT-X-TARGETDURATION:7\r\n#EXTINF:6.400,first, really\r\na.ts\r\n")
        #expect(throws: PlaylistEditor.EditError.notAnAttributeTag(line: 5)) {
            try editor.setTagValue("1", onTagAtLine: 5)
        }
    }
}
