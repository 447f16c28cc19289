using MimeKit;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>The DSNs (RFC 3464) a smtp-sink received, read back with MimeKit.</summary>
internal static class DeliveryReports
{
    /// <summary>
    /// Waits for a DSN to <paramref name="envelopeRecipient"/> (its RCPT TO, from the null sender) whose report has a
    /// recipient group with the action <paramref name="action"/> ("failed", "delayed"); returns that group's fields.
    /// </summary>
    public static async Task<HeaderList> WaitForAsync(SmtpSink sink, PostfixServer postfix, string envelopeRecipient, string action, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            foreach (string file in sink.CompletedFiles())
            {
                if (ReportTo(file, envelopeRecipient) is { } groups
                    && groups.Skip(1).FirstOrDefault(g => g["Action"] == action) is { } group)
                {
                    return group;
                }
            }

            await Task.Delay(100);
        }

        throw new TimeoutException($"No DSN with Action: {action} to <{envelopeRecipient}> within {timeout}. Postfix's log:\n{postfix.Log()}");
    }

    /// <summary>
    /// The field groups of the message/delivery-status part (the per-message group, then one per recipient) of a DSN from
    /// the null sender to <paramref name="envelopeRecipient"/>, or null when <paramref name="file"/> is another mail.
    /// </summary>
    public static IReadOnlyList<HeaderList>? ReportTo(string file, string envelopeRecipient)
    {
        var dump = SinkDump.Read(file);
        if (dump.Headers.GetValueOrDefault("X-Mail-Args")?.StartsWith("<>", StringComparison.Ordinal) != true
            || dump.Headers.GetValueOrDefault("X-Rcpt-Args")?.StartsWith($"<{envelopeRecipient}>", StringComparison.OrdinalIgnoreCase) != true)
        {
            return null;
        }

        using MimeMessage message = SinkDump.LoadMessage(file);
        return message.Body is MultipartReport { ReportType: "delivery-status" } report
            ? [.. report.OfType<MessageDeliveryStatus>().Single().StatusGroups]
            : throw new InvalidOperationException($"{file}: a mail from the null sender that is not a DSN ({message.Body?.ContentType.MimeType}).");
    }
}
