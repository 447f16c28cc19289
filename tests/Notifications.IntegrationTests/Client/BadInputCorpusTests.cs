using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;
using WorkerLane = Notifications.Shared.Data.NotificationPriority;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// The bad-input corpus as plain SQL inserts of a business app that does not use the client, in one transaction among good
/// rows: each bad shape is refused by the table (its check constraint or its column's length) or, where no check can say it,
/// claimed and refused by the consumer's own validator with the same reason the client gives; every good row is kept.
/// </summary>
[Collection("services")]
public sealed class BadInputCorpusTests
{
    [Fact]
    public async Task PlainSqlInsert_EveryBadShape_RefusedWithItsReasonAndTheGoodRowsKept()
    {
        await TestDatabase.CleanAsync();
        var good = new List<long>();
        var reachedTheTable = new Dictionary<long, BadShape>();
        var problems = new List<string>();
        await using (var connection = await TestDatabase.OpenAsync(DatabaseRole.App))
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            foreach (var shape in BadInputCorpus.Email)
            {
                good.Add(await InsertAsync(connection, new NewNotification("ada@example.com", "Order shipped", "Hello")));
                await transaction.SaveAsync("shape");
                try
                {
                    reachedTheTable[await InsertAsync(connection, shape.Notification)] = shape;
                }
                catch (PostgresException e)
                {
                    await transaction.RollbackAsync("shape");
                    string refusal = BadInputCorpus.RefusedByCheck(shape) ? e.ConstraintName ?? e.SqlState : e.SqlState;
                    if (refusal != shape.TableRefusal)
                    {
                        problems.Add($"{shape}: refused by {refusal} ({e.MessageText}), expected {shape.TableRefusal}");
                    }
                }
            }

            good.Add(await InsertAsync(connection, new NewNotification("bo@example.com", "Order shipped", "Hello") { Cc = "\"Doe, Jo\" <jo@example.com>" }));
            await transaction.CommitAsync();
        }

        problems.AddRange(reachedTheTable.Values.Where(s => s.TableRefusal is not null).Select(s => $"{s}: accepted by the table, expected {s.TableRefusal}"));
        Assert.Empty(problems);

        var messages = await ClaimAllAsync();
        Assert.Equal(good.Concat(reachedTheTable.Keys).Order(), messages.Keys.Order());
        Assert.All(good, id => Assert.Null(NotificationValidator.Validate(messages[id])));
        Assert.All(reachedTheTable, row => Assert.Contains(row.Value.Reason, NotificationValidator.Validate(messages[row.Key]), StringComparison.Ordinal));
    }

    // The columns of the corpus' fields, as a business app without the client writes them.
    private static Task<long> InsertAsync(NpgsqlConnection connection, NewNotification row) =>
        connection.ExecuteScalarAsync<long>(
            $"""
             INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, reply_to, cc, bcc, html_body, from_name, category)
             VALUES (@Recipient, @Subject, @Body, @ReplyTo, @Cc, @Bcc, @HtmlBody, @FromName, @Category) RETURNING id
             """,
            new { row.Recipient, row.Subject, row.Body, row.ReplyTo, row.Cc, row.Bcc, row.HtmlBody, row.FromName, row.Category });

    private static async Task<Dictionary<long, NotificationMessage>> ClaimAllAsync()
    {
        await using var dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);
        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        await using var claim = await new PostgresOutboxStore(dataSource, options).ClaimAsync([WorkerLane.Normal], 100, CancellationToken.None);
        return claim.Rows.ToDictionary(r => r.Id, r => r.ToMessage());
    }
}
