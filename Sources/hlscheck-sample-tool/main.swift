// hlscheck-sample-tool: used by Samples/generate.sh only, for what the ffmpeg CLI cannot do.
//
//   hlscheck-sample-tool timestamp-packed-audio MEDIA_PLAYLIST START_PTS
//
// Gives every ADTS segment of a media playlist the leading ID3 tag with Apple's PRIV
// transportStreamTimestamp that RFC 8216 §3.4 requires, written with hlscheck's own ID3 writer.
// The timestamp of each segment is START_PTS plus the samples of the segments before it, counted
// from the ADTS frames themselves (1024 samples per raw data block). Files are replaced atomically.
import Foundation
import HLSPlaylist
import MediaFormats

struct ToolError: Error, CustomStringConvertible {
    var description: String
}

func adtsSamples(_ bytes: ArraySlice<UInt8>) throws -> (samples: Int, sampleRate: Int) {
    var offset = bytes.startIndex, samples = 0, rate = 0
    while offset < bytes.endIndex {
        guard let header = ADTSHeader(bytes[offset...]), header.frameLength > 0, let sampleRate = header.sampleRate else {
            throw ToolError(description: "no ADTS frame at byte \(offset - bytes.startIndex)")
        }
        samples += 1024 * header.rawDataBlockCount
        rate = sampleRate
        offset += header.frameLength
    }
    return (samples, rate)
}

func timestampPackedAudio(playlistPath: String, start: Int64) throws {
    let playlist = PlaylistParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: playlistPath))), uri: playlistPath)
    guard let media = playlist.media else { throw ToolError(description: "\(playlistPath) is not a media playlist") }
    var pts = start
    for segment in media.segments {
        let path = URIResolver.resolve(segment.uri, against: playlistPath)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        if let existing = try? ID3Tag.parse(bytes[...]) { bytes.removeFirst(existing.byteCount) }
        let (samples, rate) = try adtsSamples(bytes[...])
        let tag = ID3Tag(frames: [TransportStreamTimestamp.makeFrame(pts90k: pts)]).serialized()
        let temporary = path + ".tmp"
        try Data(tag + bytes).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw ToolError(description: "cannot replace \(path)") }
        pts += Int64(samples) * 90_000 / Int64(rate)
    }
}

let arguments = CommandLine.arguments
do {
    guard arguments.count == 4, arguments[1] == "timestamp-packed-audio", let start = Int64(arguments[3]) else {
        throw ToolError(description: "usage: hlscheck-sample-tool timestamp-packed-audio MEDIA_PLAYLIST START_PTS")
    }
    try timestampPackedAudio(playlistPath: arguments[2], start: start)
} catch {
    FileHandle.standardError.write(Data("hlscheck-sample-tool: \(error)\n".utf8))
    exit(1)
}
