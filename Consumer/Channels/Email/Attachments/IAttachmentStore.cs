namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>Reads a notification's attached files, one implementation per SQL dialect (the retention cleanup deletes them).</summary>
internal interface IAttachmentStore
{
    /// <summary>The files of notification <paramref name="notificationId"/>, in the order the app gave them.</summary>
    Task<IReadOnlyList<AttachedFile>> LoadAsync(long notificationId, CancellationToken cancellationToken);
}
