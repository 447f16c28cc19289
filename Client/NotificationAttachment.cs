namespace Notifications.Client;

/// <summary>
/// A file sent with an email notification (<see cref="NewNotification.Attachments"/>): stored in the database with the
/// notification, in the same transaction, and attached by the consumer when it sends.
/// </summary>
/// <param name="FileName">The file's name as the reader sees it (<c>invoice-1042.pdf</c>): no path, no control characters.</param>
/// <param name="ContentType">Its media type, <c>type/subtype</c> (<c>application/pdf</c>).</param>
/// <param name="Content">Its bytes.</param>
public sealed record NotificationAttachment(string FileName, string ContentType, byte[] Content);
