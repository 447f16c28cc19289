using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>
/// The files a mail carries, loaded when it is prepared: only for a message whose <see cref="NotificationMessage.Attachments"/>
/// says it has some (the count travels on the queue, the bytes stay in the database). A mail whose files are not all there,
/// or whose file the rules refuse (a row written by plain SQL), is refused with why: it is never sent without them.
/// A database failure throws, and the pipeline retries it as any infrastructure failure.
/// </summary>
internal sealed class AttachedFiles(IAttachmentStore store)
{
    public async Task<(IReadOnlyList<AttachedFile>? Files, string? Refused)> LoadAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        if (message.Attachments is not { } expected)
        {
            return (null, null);
        }

        var files = await store.LoadAsync(message.Id, cancellationToken);
        if (files.Count != expected)
        {
            return (null, $"invalid attachments: the message names {expected} files, the attachment table holds {files.Count} for notification {message.Id}");
        }

        long total = 0;
        foreach (var file in files)
        {
            if (NotificationValidator.ValidateAttachment(file.FileName, file.ContentType) is { } invalid)
            {
                return (null, invalid);
            }

            total += file.Content.LongLength;
        }

        return NotificationValidator.ValidateAttachmentTotals(files.Count, total) is { } tooMuch ? (null, tooMuch) : (files, null);
    }
}
