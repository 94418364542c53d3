import HLSPlaylist
import MediaInspection

/// Audio renditions of one NAME and codec whose segments carry different channel counts, one of
/// them without CHANNELS.
package struct ChannelsMissingRule: Rule {
    package static let description = RuleDescription(
        id: "channels-missing", name: "CHANNELS missing where channel counts differ", defaultSeverity: .error,
        scope: .stream,
        summary:
            "Two AUDIO renditions (in different groups) have the same NAME and their segments the same codec but a different number of channels, and one of them has no CHANNELS attribute.",
        rationale:
            "bis-22 §4.4.6.1: when renditions of one NAME and codec differ in channel count, CHANNELS is required on them: it is the only thing that tells a player which of the groups carries the surround mix and which the stereo one before it downloads any audio, so a stereo device may pick the six-channel rendition and downmix, or a surround system the stereo one. The channel count is measured in each rendition's first inspected segment with audio.",
        specItems: [
            .bis(
                "4.4.6.1", rfc: "4.3.4.1", .must,
                "Renditions with the same NAME and codec but different channel counts have CHANNELS.")
        ],
        needsMedia: true)

    /// One AUDIO rendition with what its segments showed.
    private struct Measured {
        var rendition: Rendition
        var codec: String
        var channels: Int
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard let multivariant = stream.multivariant else { return [] }
        var measured: [Measured] = []
        for rendition in multivariant.renditions where rendition.type == .audio && rendition.name != nil {
            guard let audio = Self.audio(of: rendition, in: stream), let channels = audio.channels, channels > 0 else {
                continue
            }
            measured.append(
                Measured(rendition: rendition, codec: audio.codecString ?? audio.codecName, channels: channels))
        }
        struct Key: Hashable { var name: String, codec: String }
        let groups = Dictionary(grouping: measured) { Key(name: $0.rendition.name ?? "", codec: $0.codec) }
        var findings: [Finding] = []
        for (key, members) in groups.sorted(by: { ($0.key.name, $0.key.codec) < ($1.key.name, $1.key.codec) }) {
            guard Set(members.map(\.channels)).count > 1 else { continue }
            for member in members where member.rendition.channels == nil {
                guard let other = members.first(where: { $0.channels != member.channels }) else { continue }
                findings.append(
                    Finding(
                        "AUDIO rendition NAME=\"\(key.name)\" in group \"\(member.rendition.groupID ?? "")\" has no CHANNELS, but its \(key.codec) audio has \(member.channels) channel\(member.channels == 1 ? "" : "s") and the rendition of the same NAME in group \"\(other.rendition.groupID ?? "")\" (line \(other.rendition.line)) has \(other.channels): add CHANNELS=\"\(member.channels)\" so that players can tell them apart",
                        at: stream.root.location(line: member.rendition.line)))
            }
        }
        return findings
    }

    /// The audio track format of `rendition`: from its own playlist's segments, or, for a
    /// rendition without URI (muxed into the variants of its group), from those variants'
    /// segments when they all agree.
    private static func audio(of rendition: Rendition, in stream: StreamAnalysis) -> TrackFormat? {
        func firstAudio(_ measurement: PlaylistMeasurement?) -> TrackFormat? {
            measurement?.firstTrack(where: { $0.kind == .audio && $0.channels != nil })?.format
        }
        if let uri = rendition.uri {
            return firstAudio(stream.measurements[URIResolver.resolve(uri, against: stream.loaded.rootURI)])
        }
        let formats = stream.variants.filter { $0.stream?.audioGroup == rendition.groupID }.map {
            firstAudio($0.measurement)
        }
        guard let first = formats.first ?? nil,
            formats.allSatisfy({ $0?.channels == first.channels && $0?.codecString == first.codecString })
        else { return nil }
        return first
    }
}
