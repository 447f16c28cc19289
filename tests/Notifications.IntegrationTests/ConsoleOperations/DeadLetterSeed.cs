using System.Text;
using Dapper;
using Microsoft.Extensions.Configuration;
using Notifications.Admin;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Operations;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.ConsoleOperations;

/// <summary>Dead letters as the consumer makes them: a row in <c>dead_letter</c> and the message in the dead-letter queue, with the row's key.</summary>
internal static class DeadLetterSeed
{
    /// <summary>A reason of the transient group, as the consumer words giving up (the tests' big group).</summary>
    public const string Transient = "gave up after 5 attempts: smtp transient failure 421: 4.3.0 try again later";

    /// <summary>The reason class of <see cref="Transient"/>'s group (the group's page and jobs name it so).</summary>
    public static string TransientGroup => DeadLetterReasonClass.Of($"{Transient} (notification 1, user1@example.com)");

    /// <summary>An empty database, job table and dead-letter queue, then one dead letter of <see cref="Transient"/> per id.</summary>
    public static async Task SeedTransientAsync(TestBroker broker, IEnumerable<long> ids)
    {
        await TestDatabase.CleanAsync();
        await CleanJobsAsync();
        await broker.DrainDeadLetterBytesAsync(broker.Options.Queue);
        await PublishAsync(broker, ids, Transient);
    }

    /// <summary>A reason of a permanent group (the tests' small group beside the big one).</summary>
    public const string Invalid = "invalid recipient: consecutive dots";

    /// <summary>One dead letter per id, each with <paramref name="reason"/> (the id appended, so every reason differs but its class).</summary>
    public static async Task PublishAsync(TestBroker broker, IEnumerable<long> ids, string reason)
    {
        var records = new List<DeadLetterRecord>();
        await using var connection = await new ConnectionFactory { Uri = broker.Options.Uri }.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
        var publishes = new List<Task>();
        foreach (long id in ids)
        {
            var record = new DeadLetterRecord(id, $"{reason} (notification {id}, user{id}@example.com)", 5, DateTimeOffset.UtcNow) { Key = Guid.NewGuid() };
            records.Add(record);
            var body = MessageSerializer.Serialize(new NotificationMessage(id, $"user{id}@example.com", $"Order {id}", "Hello", false, DateTimeOffset.UtcNow, null));
            var properties = new BasicProperties
            {
                Persistent = true,
                ContentType = MessageSerializer.ContentType,
                Headers = new Dictionary<string, object?>
                {
                    [DeadLetter.ReasonHeader] = Encoding.UTF8.GetBytes(record.StoredReason),
                    [DeadLetter.AttemptsHeader] = 5,
                    [DeadLetter.DeadAtHeader] = record.StoredAt.ToUnixTimeMilliseconds(),
                    [DeadLetter.KeyHeader] = Encoding.UTF8.GetBytes(record.Key!.Value.ToString()),
                },
            };
            publishes.Add(channel.BasicPublishAsync(broker.Options.Exchange, broker.Options.DeadLetterQueue, mandatory: true, properties, body).AsTask());
        }

        await Task.WhenAll(publishes);
        await StatusProbe.DeadLetters().RecordAsync(records, CancellationToken.None);
    }

    /// <summary>Takes every message of the work queue; returns how many arrived per notification id.</summary>
    public static async Task<Dictionary<long, int>> DrainWorkQueueAsync(TestBroker broker)
    {
        var drained = await broker.DrainDeadLetterBytesAsync(broker.Options.Queue);
        return drained.GroupBy(m => MessageSerializer.ReadId(m.Body) ?? 0).ToDictionary(g => g.Key, g => g.Count());
    }

    /// <summary>The notification ids of the rows left in <c>dead_letter</c>.</summary>
    public static async Task<List<long>> RowsLeftAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {TestDatabase.Schema}.dead_letter ORDER BY notification_id")).AsList();
    }

    /// <summary>The admin's context on this test's broker and the test database, as the admin role's login.</summary>
    public static AdminContext Admin(TestBroker broker)
    {
        var settings = new Dictionary<string, string?>(broker.Configuration())
        {
            ["Database:ConnectionString"] = TestRoles.ConnectionString(DatabaseRole.Admin),
            ["Database:Schema"] = TestDatabase.Schema,
        };
        return new AdminContext(new ConfigurationBuilder().AddInMemoryCollection(settings).Build());
    }

    /// <summary>Empties <c>admin_job</c> (the test database is shared by the tests, one at a time).</summary>
    public static async Task CleanJobsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"TRUNCATE {TestDatabase.Schema}.admin_job");
    }
}
