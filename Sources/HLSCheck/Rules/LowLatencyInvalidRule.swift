import HLSPlaylist

// The MUSTs of draft-pantos-hls-rfc8216bis that the parser accepts syntactically but that
// relate values to each other: low-latency delivery attributes, date ranges, session metadata.
// Each message quotes the numbers it compares.

/// The lines of the tags named `name`, in file order (models keep attribute lists, not lines).
private func lines(of name: String, in playlist: Playlist) -> [Int] {
    playlist.tagLines(named: name)
}

/// EXT-X-SERVER-CONTROL, EXT-X-PART and EXT-X-PRELOAD-HINT values that break rfc8216bis.
package struct LowLatencyInvalidRule: Rule {
    static func media(_ body: String, target: Int = 4) -> [String: String] {
        ["master.m3u8": "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:\(target)\n\(body)#EXTINF:4,\ns0.ts\n"]
    }

    package static let description = RuleDescription(
        id: "low-latency-invalid", name: "Low-latency attributes out of range", defaultSeverity: .error,
        summary:
            "EXT-X-SERVER-CONTROL hold-back or skip boundary too small, PART-HOLD-BACK missing or too small, a partial segment longer than PART-TARGET, or a preload hint that cannot be.",
        rationale:
            "rfc8216bis §4.4.3.8: the Skip Boundary (CAN-SKIP-UNTIL) MUST be at least six times the Target Duration; HOLD-BACK MUST be at least three times the Target Duration; PART-HOLD-BACK is REQUIRED with EXT-X-PART-INF and MUST be at least twice the Part Target Duration; CAN-SKIP-DATERANGES requires CAN-SKIP-UNTIL. §4.4.4.9: a Partial Segment's duration MUST be at most the Part Target Duration. §4.4.5.3: TYPE is PART or MAP, and a Playlist with EXT-X-ENDLIST MUST NOT contain EXT-X-PRELOAD-HINT.",
        specItems: [
            .bis(
                "4.4.3.8", .must,
                "CAN-SKIP-UNTIL is at least six target durations, HOLD-BACK at least three, and PART-HOLD-BACK, required with EXT-X-PART-INF, at least twice the part target."
            ),
            .bis("4.4.4.9", .must, "A partial segment lasts at most the part target duration."),
            .bis(
                "4.4.5.3", .must,
                "EXT-X-PRELOAD-HINT has TYPE PART or MAP, and a playlist with EXT-X-ENDLIST carries none."),
        ],
        triggering: [
            RuleExample(
                "CAN-SKIP-UNTIL below six target durations", files: media("#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12\n")
            ).expecting(line: 4, "CAN-SKIP-UNTIL=12 is less than six times"),
            RuleExample("HOLD-BACK below three target durations", files: media("#EXT-X-SERVER-CONTROL:HOLD-BACK=8\n")),
            RuleExample(
                "EXT-X-PART-INF without PART-HOLD-BACK",
                files: media("#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES\n")),
            RuleExample(
                "PART-HOLD-BACK below two part targets",
                files: media("#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.5\n")),
            RuleExample(
                "a part longer than PART-TARGET",
                files: media(
                    "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1.5,URI=\"p0.ts\"\n"
                )),
            RuleExample(
                "a preload hint in an ended playlist",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\ns0.ts\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p1.ts\"\n#EXT-X-ENDLIST\n"
                ]),
        ],
        nonTriggering: [
            RuleExample(
                "a well-formed low-latency playlist",
                files: media(
                    "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,HOLD-BACK=12,PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p0.ts\"\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p1.ts\"\n"
                ))
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.flatMap { playlist -> [Finding] in
            guard let media = playlist.media else { return [] }
            var findings: [Finding] = []
            func report(_ message: String, _ line: Int?) {
                findings.append(Finding(message, at: playlist.location(line: line ?? 1)))
            }
            let controlLine = lines(of: "#EXT-X-SERVER-CONTROL", in: playlist).first
            let partInfLine = lines(of: "#EXT-X-PART-INF", in: playlist).first
            if let target = media.targetDuration.map(Double.init), let control = media.serverControl {
                if let skip = control.decimalFloatingPoint("CAN-SKIP-UNTIL"), skip < 6 * target {
                    report(
                        "CAN-SKIP-UNTIL=\(compactSeconds(skip)) is less than six times EXT-X-TARGETDURATION (\(compactSeconds(6 * target)) s)",
                        controlLine)
                }
                if let holdBack = control.decimalFloatingPoint("HOLD-BACK"), holdBack < 3 * target {
                    report(
                        "HOLD-BACK=\(compactSeconds(holdBack)) is less than three times EXT-X-TARGETDURATION (\(compactSeconds(3 * target)) s)",
                        controlLine)
                }
                if control.contains("CAN-SKIP-DATERANGES"), !control.contains("CAN-SKIP-UNTIL") {
                    report("CAN-SKIP-DATERANGES needs CAN-SKIP-UNTIL in the same EXT-X-SERVER-CONTROL tag", controlLine)
                }
            }
            if let partTarget = media.partTarget {
                if let partHoldBack = media.serverControl?.decimalFloatingPoint("PART-HOLD-BACK") {
                    if partHoldBack < 2 * partTarget {
                        report(
                            "PART-HOLD-BACK=\(compactSeconds(partHoldBack)) is less than twice PART-TARGET (\(compactSeconds(2 * partTarget)) s)",
                            controlLine)
                    }
                } else {
                    report(
                        "EXT-X-PART-INF is present but EXT-X-SERVER-CONTROL has no PART-HOLD-BACK (required; at least \(compactSeconds(2 * partTarget)) s, three part targets recommended)",
                        controlLine ?? partInfLine)
                }
                let parts = media.segments.flatMap(\.parts) + media.trailingParts
                if let long = parts.first(where: { $0.duration > partTarget }) {
                    let count = parts.filter { $0.duration > partTarget }.count
                    report(
                        "partial segment \(long.uri) lasts \(compactSeconds(long.duration)) s, longer than PART-TARGET \(compactSeconds(partTarget)) s\(count > 1 ? " (\(count) such parts)" : "")",
                        long.line)
                }
            }
            let hintLines = lines(of: "#EXT-X-PRELOAD-HINT", in: playlist)
            for (index, hint) in media.preloadHints.enumerated() {
                let line = index < hintLines.count ? hintLines[index] : nil
                if let type = hint.string("TYPE"), type != "PART", type != "MAP" {
                    report("EXT-X-PRELOAD-HINT TYPE=\(type): the type is PART or MAP", line)
                }
                if media.endList {
                    report(
                        "EXT-X-PRELOAD-HINT in a playlist that has EXT-X-ENDLIST: nothing more will be published; remove the hint",
                        line)
                }
            }
            return findings
        }
    }
}
