using System.Security.Cryptography;
using BenchmarkDotNet.Attributes;
using MimeKit;
using Notifications.Consumer.Channels.Email;

namespace Notifications.Benchmarks;

/// <summary>
/// Building one email as a MimeMessage and writing it the way MailKit's SmtpClient does (encoding chosen
/// for an 8BITMIME or a 7-bit server, CRLF line ends) into a reused buffer: the client's per-message MIME cost.
/// </summary>
[MemoryDiagnoser]
public class MimeBenchmarks
{
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };
    private readonly MemoryStream _output = new(8192);
    private readonly MimeMessageBuilder _builder = new("notifications@localhost", "notifications.local");
    private readonly MailboxAddress _to = new(string.Empty, "customer123456@example.com");
    private readonly EmailMessage _ascii = new(123_456, "customer123456@example.com", "Your order #123456 has shipped",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    private readonly EmailMessage _unicode = new(123_456, "customer123456@example.com", "Ihre Bestellung #123456 wurde verschickt – danke",
        "Grüße,\n\nIhre Bestellung 123456 ist unterwegs. ✓\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    // A subject MimeKit's encoder would spoil (a literal encoded-word), so it is encoded whole: the rare path.
    private readonly EmailMessage _literalEncodedWord = new(123_456, "customer123456@example.com", "Literal =?utf-8?B?SGk=?= text",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55));

    // Reply-To, Cc and two custom headers: what a richer message adds to the build (docs/messages.md).
    private readonly EmailMessage _rich = new(123_456, "customer123456@example.com", "Your order #123456 has shipped",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55))
    {
        ReplyTo = "Support <support@example.com>", Cc = "orders@example.com", Headers = """{"X-Campaign":"shipping","X-Order":"123456"}""",
    };

    private string? _keyFile;
    private DkimMessageSigner? _dkim;

    // A fresh 2048-bit key, as a PEM file the way Dkim:PrivateKeyFile reads it.
    [GlobalSetup]
    public void Setup()
    {
        using var rsa = RSA.Create(2048);
        _keyFile = Path.GetTempFileName();
        File.WriteAllText(_keyFile, rsa.ExportPkcs8PrivateKeyPem());
        _dkim = DkimMessageSigner.Create(new DkimOptions { Domain = "example.com", Selector = "bench", PrivateKeyFile = _keyFile });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        if (_keyFile is not null)
        {
            File.Delete(_keyFile);
        }
    }

    // Disposed as the sender does: an undisposed MimeMessage is finalized, which costs more than building it.
    [Benchmark]
    public int BuildAscii()
    {
        using MimeMessage message = _builder.Build(_ascii, _to);
        return message.Headers.Count;
    }

    [Benchmark(Baseline = true)]
    public long WriteAscii() => Write(_ascii, EncodingConstraint.EightBit);

    [Benchmark]
    public long WriteUnicode8Bit() => Write(_unicode, EncodingConstraint.EightBit);

    [Benchmark]
    public long WriteUnicodeQuotedPrintable() => Write(_unicode, EncodingConstraint.SevenBit);

    [Benchmark]
    public long WriteSubjectEncodedWhole() => Write(_literalEncodedWord, EncodingConstraint.EightBit);

    [Benchmark]
    public long WriteRichHeaders() => Write(_rich, EncodingConstraint.EightBit);

    // The signing cost: relaxed/relaxed canonicalization, SHA-256 of body and headers, one RSA-2048 signature.
    [Benchmark]
    public long WriteAsciiDkimSigned() => Write(_ascii, EncodingConstraint.EightBit, _dkim);

    private long Write(EmailMessage email, EncodingConstraint constraint, DkimMessageSigner? dkim = null)
    {
        using MimeMessage message = _builder.Build(email, _to, HeaderFields.Resolve(email, serverOffersSmtpUtf8: false));
        dkim?.Sign(Wire, message);
        message.Prepare(constraint, 998);
        _output.SetLength(0);
        message.WriteTo(Wire, _output);
        return _output.Length;
    }
}
