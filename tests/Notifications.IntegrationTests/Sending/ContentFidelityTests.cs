using System.Text;
using Dapper;
using MimeKit;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Npgsql;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// A corpus through the whole pipeline (outbox, producer, broker, consumer, MailKit) into smtp-sink, each
/// received file parsed back with MimeKit. "Identical" means: the subject is the same string; the body is
/// the same text once every line break is one LF and it ends with one (CRLF, a lone CR and a lone LF all
/// go out as CRLF, RFC 5322 2.3; the message ends with a line break on the wire anyway).
/// </summary>
[Collection("services")]
public sealed class ContentFidelityTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_Corpus_EverySubjectAndBodyArrivesIdenticalAfterDecoding()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var sent = new Dictionary<long, Row>();
        foreach (Row row in Corpus())
        {
            sent[await InsertAsync(row)] = row;
        }

        long needsSmtpUtf8 = await InsertAsync(new Row("jürgen@example.test", "non-ASCII local part", "x", false));

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(sent.Count, Patience);
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, Patience, "dead letter");
        }

        PipelineTests.AssertExactlyOnce([.. sent.Keys], sink.CountByNotificationId());
        var wrongSubjects = new List<string>();
        foreach (string file in sink.MessageFiles())
        {
            using MimeMessage received = SinkDump.LoadMessage(file);
            Row row = sent[long.Parse(received.Headers["X-Notification-Id"]!, System.Globalization.CultureInfo.InvariantCulture)];

            // Every subject is checked before the test fails, so one run names all that arrived wrong.
            string subject = SinkDump.DecodedSubject(received);
            if (subject != row.Subject || received.Subject != row.Subject.Trim())
            {
                wrongSubjects.Add($"sent '{Shown(row.Subject)}', decoded '{Shown(subject)}', MimeKit's Subject '{Shown(received.Subject)}'");
            }

            Assert.Equal(Normalized(row.Body), (row.IsHtml ? received.HtmlBody : received.TextBody)?.ReplaceLineEndings("\n"));
            Assert.Equal(row.IsHtml ? "text/html" : "text/plain", received.Body?.ContentType.MimeType);
            Assert.Equal($"<{Envelope(row.Recipient)}>", received.Headers["X-Rcpt-Args"]);
            Assert.Equal(Envelope(row.Recipient), ((MailboxAddress)received.To.Single()).GetAddress(idnEncode: true));
        }

        Assert.True(wrongSubjects.Count == 0, string.Join('\n', wrongSubjects));
        var deadLetter = Assert.Single(await broker.DrainDeadLettersAsync());
        Assert.Contains($"\"id\":{needsSmtpUtf8},", deadLetter.Body, StringComparison.Ordinal);
        Assert.Contains("smtp permanent failure", deadLetter.Reason, StringComparison.Ordinal);
        Assert.Contains("needs SMTPUTF8", deadLetter.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Outbox_SubjectOf999Emoji_RefusedBySchemaLikeTheValidator()
    {
        await TestDatabase.CleanAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(
            () => InsertAsync(new Row("a@example.test", string.Concat(Enumerable.Repeat("😀", 999)), "b", false)));

        Assert.Equal(PostgresErrorCodes.StringDataRightTruncation, refused.SqlState);
    }

    private static IEnumerable<Row> Corpus()
    {
        yield return new("ivan@example.test", "Ваш заказ отправлен — спасибо!", "Здравствуйте, Иван!\nВаш заказ №123 в пути.", false);
        yield return new("eleni@example.test", "Η παραγγελία σας εστάλη", "Γειά σου Ελένη,\nη παραγγελία σου είναι καθ' οδόν.", false);
        yield return new("li@example.test", "您的订单已发货 ご注文の商品を発送しました", "李先生，您好！\n您的订单已发货。日本語も。한국어도.", false);
        yield return new("omar@example.test", "تم شحن طلبك", "مرحبا عمر،\nتم شحن طلبك رقم ١٢٣.", false);
        yield return new("emoji@example.test", string.Concat(Enumerable.Repeat("😀", 998)), "Non-BMP: 😀🎉𝄞𠜎 and a flag 🇩🇪.\n", false);
        yield return new("dots@example.test", "Dot lines", ".\n..\n.leading dot\n. \nend with a dot line\n.", false);
        yield return new("long@example.test", "A 5,000-character line", "before\n" + new string('y', 4990) + "ü😀xyz\nafter", false);
        yield return new("breaks@example.test", "Mixed line breaks", "crlf\r\nlone cr\rlone lf\ncr cr lf\r\r\nend", false);
        yield return new("big@example.test", "One megabyte", OneMegabyte(), false);
        yield return new("html@example.test", "HTML <b>bold</b> & more", "<html><body><p>Grüße, <b>Jürgen</b> &amp; 😀</p>\n<p>.</p></body></html>", true);
        yield return new("user+orders.2026@example.test", "Plus-addressed", "Sub-addressed recipient.", false);
        yield return new("kunde@bücher.example", "IDN domain", "Delivered as punycode: the sink offers no SMTPUTF8.", false);

        // Subjects MimeKit's own encoder would spoil: a literal encoded-word (decoded by every reader unless
        // itself encoded, RFC 2047 5) and blanks at either end (dropped unless inside an encoded-word).
        foreach (string subject in TrickySubjects())
        {
            yield return new("subject@example.test", subject, "Subject fidelity.", false);
        }
    }

    private static IEnumerable<string> TrickySubjects()
    {
        yield return "Literal =?utf-8?B?SGk=?= text";
        yield return "=?utf-8?q?a_whole_word?=";
        yield return "Grüße =?iso-8859-1?q?Gr=FC=DFe?= aus Köln";
        yield return "glued=?utf-8?B?SGk=?=word";
        yield return "Trailing spaces   ";
        yield return "   leading spaces";
        yield return "    ";
        yield return " ";
        yield return new string('s', 997) + " ";
        yield return string.Concat(Enumerable.Repeat("long subject ", 76)) + "end ";
        yield return " " + string.Concat(Enumerable.Repeat("😀", 997));
        yield return " Grüße aus Köln ";
        yield return "\u3000全角の空白\u3000";
        yield return string.Join("  ", Enumerable.Repeat("double-spaced", 60));
    }

    private static string OneMegabyte()
    {
        var text = new StringBuilder(1024 * 1024);
        for (int line = 0; text.Length < 1_000_000; line++)
        {
            text.Append(line % 7 == 0 ? "Zeile mit Umlauten äöü und 😀 " : "plain ascii line ").Append(line).Append('\n');
        }

        return text.ToString();
    }

    // Long subjects shortened (at whole characters) for the failure message.
    private static string Shown(string? text) => text switch
    {
        null => "(none)",
        { Length: <= 60 } => text,
        _ => $"{string.Concat(text.EnumerateRunes().Take(20))}…{string.Concat(text.EnumerateRunes().TakeLast(10))} ({text.Length} UTF-16 units)",
    };

    private static string Envelope(string recipient) =>
        recipient.Replace("bücher.example", "xn--bcher-kva.example", StringComparison.Ordinal);

    private static string Normalized(string body)
    {
        string lines = body.Replace("\r\n", "\n", StringComparison.Ordinal).Replace('\r', '\n');
        return lines.EndsWith('\n') ? lines : lines + "\n";
    }

    private static async Task<long> InsertAsync(Row row)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, is_html) VALUES (@Recipient, @Subject, @Body, @IsHtml) RETURNING id",
            row);
    }

    private sealed record Row(string Recipient, string Subject, string Body, bool IsHtml);
}
