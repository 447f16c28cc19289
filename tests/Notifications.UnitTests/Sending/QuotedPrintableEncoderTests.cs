using System.Buffers;
using System.Text;
using System.Text.RegularExpressions;
using Notifications.Consumer.Sending.Mime;

namespace Notifications.UnitTests.Sending;

public sealed partial class QuotedPrintableEncoderTests
{
    [Fact]
    public void Encode_LineLongerThan76_SoftBreaksKeepLinesWithin76()
    {
        string text = new('a', 200);

        string encoded = Encode(text);

        string[] lines = encoded.Split("\r\n")[..^1];
        Assert.Equal(3, lines.Length);
        Assert.All(lines, line => Assert.True(line.Length <= 76, line));
        Assert.All(lines[..^1], line => Assert.EndsWith("=", line, StringComparison.Ordinal));
        Assert.Equal(text + "\r\n", MimeDecoding.DecodeQuotedPrintable(encoded));
    }

    [Theory]
    [InlineData(76, 1)]
    [InlineData(77, 2)]
    public void Encode_LineAtTheLimit_SoftBreaksOnlyWhenOver76(int length, int expectedLines)
    {
        string encoded = Encode(new string('b', length));

        Assert.Equal(expectedLines, encoded.Split("\r\n").Length - 1);
    }

    [Theory]
    [InlineData("a=b", "a=3Db\r\n")]
    [InlineData("é", "=C3=A9\r\n")]
    [InlineData("€ ok", "=E2=82=AC ok\r\n")]
    [InlineData("tab\there", "tab\there\r\n")]
    public void Encode_SpecialCharacters_EncodedAsHexOctets(string text, string expected)
    {
        Assert.Equal(expected, Encode(text));
    }

    [Fact]
    public void Encode_LoneSurrogate_WritesReplacementCharacter()
    {
        // Built at run time: attribute metadata cannot carry a lone surrogate.
        string text = "a" + (char)0xD800 + "b";

        Assert.Equal("a=EF=BF=BDb\r\n", Encode(text));
    }

    [Fact]
    public void Encode_TrailingWhitespace_EncodedOnlyAtLineEnd()
    {
        string encoded = Encode("one two \nthree\t\nfour");

        Assert.Equal("one two=20\r\nthree=09\r\nfour\r\n", encoded);
    }

    [Fact]
    public void Encode_MixedLineEnds_NormalisedToCrlf()
    {
        Assert.Equal("a\r\nb\r\nc\r\n\r\nd\r\n", Encode("a\rb\r\nc\n\nd\n"));
    }

    [Fact]
    public void Encode_NonAsciiAcrossSoftBreaks_NeverSplitsAnEscape()
    {
        string text = string.Concat(Enumerable.Repeat("xé€😀 ", 40));

        string encoded = Encode(text);

        Assert.All(encoded.Split("\r\n")[..^1], line =>
        {
            Assert.True(line.Length <= 76, line);
            Assert.Matches(WellFormedLine(), line);
        });
        Assert.Equal(text + "\r\n", MimeDecoding.DecodeQuotedPrintable(encoded));
    }

    [Fact]
    public void Encode_SpaceBeforeSoftBreak_StaysLiteralBecauseEqualsFollows()
    {
        string text = new string('c', 74) + " de";

        string encoded = Encode(text);

        Assert.Equal(new string('c', 74) + " =\r\nde\r\n", encoded);
    }

    private static string Encode(string text)
    {
        var buffer = new ArrayBufferWriter<byte>();
        QuotedPrintableEncoder.Encode(text, buffer);
        return Encoding.ASCII.GetString(buffer.WrittenSpan);
    }

    // Literal characters or complete =XX escapes, optionally ending in a soft break's "=".
    [GeneratedRegex("^(?:[^=]|=[0-9A-F]{2})*=?$")]
    private static partial Regex WellFormedLine();
}
