import Testing
@testable import MediaFormats

@Suite("ByteReader and ByteWriter")
struct ByteReaderWriterTests {
    @Test("what the writer writes, the reader reads back")
    func mirror() throws {
        var writer = ByteWriter()
        writer.writeUInt8(0xAB)
        writer.writeUInt16(0x1234)
        writer.writeUInt24(0x56789A)
        writer.writeUInt32(0xDEAD_BEEF)
        writer.writeUInt64(0x0102_0304_0506_0708)
        writer.writeSynchsafeUInt28(0x0FFF_FFFF)
        writer.writeNullTerminatedUTF8("emsg")
        #expect(writer.count == 1 + 2 + 3 + 4 + 8 + 4 + 5)
        // Reading from a slice that does not start at index 0.
        var reader = ByteReader(([0xEE] + writer.bytes)[1...])
        #expect(reader.readUInt8() == 0xAB)
        #expect(reader.readUInt16() == 0x1234)
        #expect(reader.readUInt24() == 0x56789A)
        #expect(reader.readUInt32() == 0xDEAD_BEEF)
        #expect(reader.readUInt64() == 0x0102_0304_0506_0708)
        #expect(reader.readSynchsafeUInt28() == 0x0FFF_FFFF)
        #expect(Array(reader.readNullTerminated()) == Array("emsg".utf8))
        #expect(reader.isAtEnd)
        #expect(reader.offset == writer.count)
    }

    @Test("short input gives nil and does not move the cursor")
    func shortInputIsNil() {
        var reader = ByteReader([1, 2, 3])
        #expect(reader.readUInt32() == nil)
        #expect(reader.readBytes(4) == nil)
        #expect(reader.readBytes(-1) == nil)
        #expect(reader.skip(4) == false)
        #expect(reader.readUInt24() == 0x010203)
        #expect(reader.readUInt8() == nil)
    }

    @Test("a non-synchsafe size is rejected")
    func rejectsNonSynchsafe() {
        var reader = ByteReader([0x00, 0x00, 0x80, 0x00])
        #expect(reader.readSynchsafeUInt28() == nil)
        #expect(reader.remainingCount == 4)
    }
}
