using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// <c>admin purge</c> and the attached files (migration 026): a notification's files live in <c>attachment</c>, apart from
/// its outbox row (the producer deletes that row when it claims it) and go with its last record. A purged outbox row or
/// dead letter is such a last record: its files go with it, and the files of any other notification stay.
/// </summary>
[Collection("services")]
public sealed class PurgeAttachmentsTests
{
    private static readonly NotificationAttachment Pdf = new("invoice.pdf", "application/pdf", [1, 2, 3]);

    [Fact]
    public async Task PurgeOutbox_RowsWithAttachedFiles_TheirFilesGoAndOthersStay()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        long first = await TestDatabase.EnqueueAsync(new NewNotification("a@example.test", "Invoice", "Attached.") { Attachments = [Pdf, Pdf with { FileName = "terms.pdf" }] });
        long second = await TestDatabase.EnqueueAsync(new NewNotification("b@example.test", "Invoice", "Attached.") { Attachments = [Pdf] });
        // Another notification's file, its outbox row already claimed: still to be sent.
        await AttachAsync(second + 1000);

        var purge = await AdminRun.InProcessAsync(broker, "", "purge", "outbox", "--yes");

        Assert.True(purge.ExitCode == 0, purge.Error);
        Assert.Contains("Deleted 2 row(s)", purge.Output, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("outbox"));
        Assert.Equal([second + 1000], await AttachedAsync());
        Assert.DoesNotContain(first, await AttachedAsync());
    }

    [Fact]
    public async Task PurgeDeadLetters_RecordedWithAttachedFiles_TheirFilesGoAndOthersStay()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync(
                $"INSERT INTO {TestDatabase.Schema}.dead_letter (notification_id, reason, attempts, dead_lettered_at) VALUES (7001, 'gave up', 5, now() - interval '1 minute')");
        }

        await AttachAsync(7001);
        await AttachAsync(7002);

        var purge = await AdminRun.InProcessAsync(broker, "", "purge", "dead-letters", "--yes");

        Assert.True(purge.ExitCode == 0, purge.Error);
        Assert.Contains("Deleted 1 row(s)", purge.Output, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("dead_letter"));
        Assert.Equal([7002L], await AttachedAsync());
    }

    private static async Task AttachAsync(long notificationId)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.attachment (notification_id, position, file_name, content_type, content) VALUES (@Id, 0, 'x.pdf', 'application/pdf', '\\x01'::bytea)",
            new { Id = notificationId });
    }

    private static async Task<List<long>> AttachedAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT DISTINCT notification_id FROM {TestDatabase.Schema}.attachment ORDER BY 1")).AsList();
    }
}
