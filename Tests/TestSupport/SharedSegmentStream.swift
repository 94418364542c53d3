import Foundation

/// Turns a copy of Samples/compliant at `folder` into a ladder whose audio-only variant shares its
/// segment files with an audio rendition: `audio/rendition.m3u8`, a copy of the variant's
/// playlist, becomes the AUDIO group of the first video variant — as ffmpeg's `var_stream_map`
/// with an `agroup` writes it. Returns the multivariant playlist's path.
public func makeAudioRenditionShareTheAudioOnlySegments(compliantAt folder: String) throws -> String {
    let audio = folder + "/audio"
    try FileManager.default.copyItem(atPath: audio + "/index.m3u8", toPath: audio + "/rendition.m3u8")
    let multivariant = folder + "/master.m3u8"
    let text = try String(contentsOfFile: multivariant, encoding: .utf8)
        .replacingOccurrences(
            of: "#EXT-X-INDEPENDENT-SEGMENTS\n",
            with:
                "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/rendition.m3u8\"\n"
        )
        .replacingOccurrences(of: "FRAME-RATE=25.000\nv0/", with: "FRAME-RATE=25.000,AUDIO=\"aud\"\nv0/")
    try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
    return multivariant
}
