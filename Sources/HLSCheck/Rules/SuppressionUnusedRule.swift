/// A suppression comment that excused nothing: the finding it was written for is gone (fixed, or
/// moved to another line), and a stale exception would silently excuse a future one.
/// Reported by the engine once every other rule has run (Suppressions).
package struct SuppressionUnusedRule: Rule {
    package static let description = RuleDescription(
        id: "suppression-unused", name: "Suppression excuses nothing", defaultSeverity: .warning,
        summary: "A # hlscheck-disable… comment excused no finding (or a # hlscheck-enable ended no region).",
        rationale: """
            An exception outlives the problem it excused: once the finding is fixed or moves, the comment \
            would silently excuse the next, unrelated one on that line or in that region. Rules that did not \
            run (switched off, or needing segments under --playlist-only) are never called unused.
            """,
        triggering: [
            RuleExample(
                "a next-line directive before a valid line",
                files: Examples.stream(
                    "# hlscheck-disable-next-line playlist-syntax\n" + Examples.audioVariant())
            ).expecting(line: 3, "# hlscheck-disable-next-line playlist-syntax"),
            RuleExample(
                "a region with nothing in it",
                files: Examples.stream(
                    "# hlscheck-disable playlist-syntax\n" + Examples.audioVariant()
                        + "# hlscheck-enable playlist-syntax\n")),
            RuleExample(
                "an enable without a disable",
                files: Examples.stream(
                    Examples.audioVariant() + "# hlscheck-enable playlist-syntax\n")),
        ],
        nonTriggering: [
            RuleExample(
                "a next-line directive that excuses a finding",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n# hlscheck-disable-next-line playlist-syntax\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
                    "audio.m3u8": Examples.media(),
                ]),
            RuleExample(
                "a file-level directive that excuses a finding",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\naudio.m3u8\n# hlscheck-disable-file playlist-syntax\n",
                    "audio.m3u8": Examples.media(),
                ]),
            RuleExample(
                "a region that excuses a finding",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n# hlscheck-disable playlist-syntax\n#EXT-X-STREAM-INF:CODECS=\"mp4a.40.2\"\naudio.m3u8\n# hlscheck-enable playlist-syntax\n",
                    "audio.m3u8": Examples.media(),
                ]),
        ]
    )

    /// The engine reports it (Checker.diagnose), once the findings it could excuse are known.
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] { [] }
}
