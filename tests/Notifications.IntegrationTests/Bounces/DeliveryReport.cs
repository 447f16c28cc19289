using MimeKit;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>One DSN: the address it was sent to (RCPT TO: the original mail's envelope sender) and its per-recipient field groups.</summary>
internal sealed record DeliveryReport(string EnvelopeRecipient, IReadOnlyList<HeaderList> Recipients);
