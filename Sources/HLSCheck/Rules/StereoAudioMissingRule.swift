import HLSPlaylist
import MediaInspection

/// Audio without a stereo AAC choice.
package struct StereoAudioMissingRule: Rule {
    /// AAC-LC, HE-AAC v1 and HE-AAC v2 (ISO/IEC 14496-3 audio object types 2, 5 and 29).
    static let aac: Set<String> = ["mp4a.40.2", "mp4a.40.5", "mp4a.40.29"]

    static func isStereoAAC(_ format: TrackFormat) -> Bool {
        guard format.kind == .audio, let codec = format.codecString, aac.contains(codec) else { return false }
        // HE-AAC v2 codes one channel and its parametric stereo: the core says mono.
        return format.channels == 2 || codec == "mp4a.40.29"
    }

    package static let description = RuleDescription(
        id: "stereo-audio-missing", name: "No stereo AAC audio", defaultSeverity: .error, settings: .appleOnly,
        summary: "The stream has audio, but none of it is stereo AAC-LC, HE-AAC v1 or HE-AAC v2.",
        rationale:
            "Stereo AAC is the audio every Apple device decodes and every output plays; a stream whose audio is only multichannel, mono, or in another codec leaves some devices without the audio they need.",
        specItems: [.apple("2.3", .must, "Stereo AAC-LC, HE-AAC v1 or HE-AAC v2 audio is provided.")],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        let playlists = stream.measuredPlaylists
        // A playlist whose segments were not read may hold the stereo AAC.
        guard playlists.allSatisfy(\.hasInspectedSegments) else { return [] }
        var audio: [(PlaylistMeasurement, TrackFormat)] = []
        for measurement in playlists {
            let formats = measurement.records.distinctTrackFormats.joined().filter { $0.kind == .audio }
            if formats.contains(where: Self.isStereoAAC) { return [] }
            audio += formats.map { (measurement, $0) }
        }
        guard let (measurement, _) = audio.first,
            let record = measurement.firstTrack(where: { $0.kind == .audio })?.record
        else { return [] }
        let found = Set(
            audio.map { "\($0.1.channels.map { "\($0)-channel " } ?? "")\($0.1.codecString ?? $0.1.codecName)" }
        ).sorted()
        return [
            Finding(
                "the stream's audio is \(found.joined(separator: ", ")), with no stereo AAC: provide stereo AAC-LC or HE-AAC audio (e.g. ffmpeg -c:a aac -ac 2)",
                at: measurement.location(of: record))
        ]
    }
}
