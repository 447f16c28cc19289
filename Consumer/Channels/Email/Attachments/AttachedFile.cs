namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>One row of the table <c>attachment</c>: a file sent with its notification.</summary>
internal sealed record AttachedFile(short Position, string FileName, string ContentType, byte[] Content);
