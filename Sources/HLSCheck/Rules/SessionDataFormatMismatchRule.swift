import HLSPlaylist

/// The resource a session-data URI names is not JSON although its FORMAT (JSON by default)
/// says so, or cannot be read.
package struct SessionDataFormatMismatchRule: Rule {
    static func stream(_ tag: String, _ files: [String: String]) -> [String: String] {
        Examples.stream(Examples.audioVariant(), header: "#EXTM3U\n#EXT-X-VERSION:3\n" + tag).merging(files) { $1 }
    }

    package static let description = RuleDescription(
        id: "session-data-format-mismatch", name: "Session data not in its FORMAT", defaultSeverity: .error,
        summary:
            "The resource an EXT-X-SESSION-DATA URI names is not JSON although its FORMAT is JSON (the default), or it cannot be read.",
        rationale: """
            bis-22 §4.4.6.4: with a URI, EXT-X-SESSION-DATA points at its value instead of \
            carrying it, and FORMAT says what the resource is: JSON (RFC 8259), the default, or \
            RAW, any bytes. A client that parses the JSON it was promised gets nothing from \
            a file that is not, or is not there. RAW resources are not judged; the resource is \
            read like a segment (not with --playlist-only), within the stream's root.
            """,
        specItems: [
            .bis(
                "4.4.6.4", rfc: "4.3.4.4", .must,
                "The resource at a session-data URI has the FORMAT declared (JSON by default): a FORMAT=JSON resource parses as JSON."
            )
        ],
        needsMedia: true,
        triggering: [
            RuleExample(
                "a title file that is not JSON",
                files: stream(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",URI=\"title.json\"\n",
                    ["title.json": "title: Big Buck Bunny\n"])
            )
            .expecting(line: 3, "is not JSON"),
            RuleExample(
                "FORMAT=JSON and the file is missing",
                files: stream(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.lyrics\",URI=\"lyrics.json\",FORMAT=JSON\n", [:])
            )
            .expecting(line: 3, "cannot be read"),
        ],
        nonTriggering: [
            RuleExample(
                "a JSON title",
                files: stream(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",URI=\"title.json\"\n",
                    ["title.json": "{\"en\": \"Big Buck Bunny\"}\n"])),
            RuleExample(
                "RAW data",
                files: stream(
                    "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.cover\",URI=\"cover.bin\",FORMAT=RAW\n",
                    ["cover.bin": "not JSON at all"])),
            RuleExample(
                "a VALUE",
                files: stream("#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Big Buck Bunny\"\n", [:])),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.sessionData.compactMap { resource in
            let tag = "EXT-X-SESSION-DATA DATA-ID=\"\(resource.dataID)\""
            let location = stream.root.location(line: resource.line)
            guard let bytes = resource.bytes else {
                return Finding(
                    "\(tag): URI \(resource.uri) cannot be read (\(resource.failure ?? "no answer")): clients get no session data; publish the JSON file there (bis-22 §4.4.6.4)",
                    at: location)
            }
            guard let problem = JSONText.problem(bytes) else { return nil }
            return Finding(
                "\(tag): the resource at URI \(resource.uri) is not JSON (\(problem)), but its FORMAT is JSON (the default); publish JSON there, or declare FORMAT=RAW (bis-22 §4.4.6.4)",
                at: location)
        }
    }
}
