using System.Text.RegularExpressions;
using MimeKit;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>The DSNs (RFC 3464) a smtp-sink received, read back with MimeKit.</summary>
internal static partial class DeliveryReports
{
    /// <summary>Every DSN in the sink's dump so far: mail from the null sender whose body is a delivery-status report.</summary>
    public static IReadOnlyList<DeliveryReport> Received(SmtpSink sink) => [.. sink.CompletedFiles().Select(Read).OfType<DeliveryReport>()];

    /// <summary>
    /// Waits for a DSN to <paramref name="envelopeRecipient"/> with a recipient group whose action is <paramref name="action"/>
    /// ("failed", "delayed"); returns that group's fields. <paramref name="timeout"/> only guards.
    /// </summary>
    public static async Task<HeaderList> WaitForAsync(SmtpSink sink, PostfixServer postfix, string envelopeRecipient, string action, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (Received(sink).Where(r => string.Equals(r.EnvelopeRecipient, envelopeRecipient, StringComparison.OrdinalIgnoreCase))
                .SelectMany(r => r.Recipients).FirstOrDefault(g => g["Action"] == action) is { } group)
            {
                return group;
            }

            await Task.Delay(100);
        }

        throw new TimeoutException($"No DSN with Action: {action} to <{envelopeRecipient}> within {timeout}. Postfix's log:\n{postfix.Log()}");
    }

    private static DeliveryReport? Read(string file)
    {
        var dump = SinkDump.Read(file);
        if (dump.Headers.GetValueOrDefault("X-Mail-Args")?.StartsWith("<>", StringComparison.Ordinal) != true)
        {
            return null;
        }

        string recipient = EnvelopeAddress().Match(dump.Headers["X-Rcpt-Args"]).Groups[1].Value;
        using MimeMessage message = SinkDump.LoadMessage(file);
        return message.Body is MultipartReport { ReportType: "delivery-status" } report
            ? new DeliveryReport(recipient, [.. report.OfType<MessageDeliveryStatus>().Single().StatusGroups.Skip(1)])
            : throw new InvalidOperationException($"{file}: a mail from the null sender that is not a DSN ({message.Body?.ContentType.MimeType}).");
    }

    [GeneratedRegex("^<([^>]*)>")]
    private static partial Regex EnvelopeAddress();
}
