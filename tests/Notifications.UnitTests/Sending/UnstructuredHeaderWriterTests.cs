using System.Buffers;
using System.Text;
using Notifications.Consumer.Sending.Mime;

namespace Notifications.UnitTests.Sending;

public sealed class UnstructuredHeaderWriterTests
{
    [Theory]
    [InlineData("Hello world", "Subject: Hello world\r\n")]
    [InlineData("", "Subject: \r\n")]
    [InlineData("Café au lait", "Subject: =?utf-8?Q?Caf=C3=A9_au_lait?=\r\n")]
    [InlineData("日本語", "Subject: =?utf-8?B?5pel5pys6Kqe?=\r\n")]
    [InlineData("50% = half?", "Subject: 50% = half?\r\n")]
    public void Write_ShortSubject_PlainOrShorterEncoding(string subject, string expected)
    {
        Assert.Equal(expected, Write(subject));
    }

    [Fact]
    public void Write_LongAsciiSubject_FoldsAtSpacesWithin78()
    {
        string subject = string.Join(' ', Enumerable.Range(1, 40).Select(i => $"word{i}"));

        string field = Write(subject);

        string[] lines = field.Split("\r\n")[..^1];
        Assert.True(lines.Length > 1);
        Assert.All(lines, line => Assert.True(line.Length <= 78, line));
        Assert.All(lines[1..], line => Assert.StartsWith(" ", line, StringComparison.Ordinal));
        Assert.Equal("Subject: " + subject + "\r\n", field.Replace("\r\n ", " ", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("Grüße aus Köln – your order ✓ has shipped, and this subject is long enough to need several words")]
    [InlineData("😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀")]
    [InlineData("日本語の件名はとても長いのでいくつかの単語に分けなければなりません。日本語の件名はとても長いので")]
    public void Write_LongNonAsciiSubject_WordsOfWholeCharactersWithin78(string subject)
    {
        string field = Write(subject);

        Assert.All(field.Split("\r\n")[..^1], line => Assert.True(line.Length <= 78, line));
        IReadOnlyList<string> words = MimeDecoding.EncodedWords(field);
        Assert.True(words.Count > 1);
        Assert.All(words, word => Assert.True(word.Length <= 75, word));
        Assert.All(words, word => MimeDecoding.DecodeHeaderValue("X: " + word)); // throws on a split character
        Assert.Equal(subject, MimeDecoding.DecodeHeaderValue(field));
    }

    [Theory]
    [InlineData("=?utf-8?Q?not_an_encoded_word?=")]
    [InlineData("tab\there")]
    [InlineData("bell\u0007")]
    public void Write_TextThatWouldBeMisreadAsIs_IsEncodedAndRoundTrips(string subject)
    {
        string field = Write(subject);

        Assert.StartsWith("Subject: =?utf-8?", field, StringComparison.Ordinal);
        Assert.Equal(subject, MimeDecoding.DecodeHeaderValue(field));
    }

    [Fact]
    public void Write_AsciiWordLongerThan998_EncodedWithinLineLimits()
    {
        string subject = new('x', 2000);

        string field = Write(subject);

        Assert.All(field.Split("\r\n")[..^1], line => Assert.True(line.Length <= 78, line));
        Assert.Equal(subject, MimeDecoding.DecodeHeaderValue(field));
    }

    [Fact]
    public void Write_TrailingSpaces_NoWhitespaceOnlyContinuationLine()
    {
        string subject = string.Join(' ', Enumerable.Repeat("abcdefghij", 7)) + "          ";

        string field = Write(subject);

        Assert.All(field.Split("\r\n")[..^1], line => Assert.False(string.IsNullOrWhiteSpace(line), $"'{line}'"));
        Assert.Equal("Subject: " + subject + "\r\n", field.Replace("\r\n ", " ", StringComparison.Ordinal));
    }

    private static string Write(string subject)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var writer = new ByteWriter(buffer);
        UnstructuredHeaderWriter.Write("Subject", subject, ref writer);
        writer.Flush();
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
