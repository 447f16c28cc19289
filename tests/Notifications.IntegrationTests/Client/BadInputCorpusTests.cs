using Dapper;
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
                good.Add(await InsertAsync(connection, "ada@example.com", "Order shipped", "Hello"));
                await transaction.SaveAsync("shape");
                try
                {
                    reachedTheTable[await InsertAsync(connection, shape.Recipient, shape.Subject, shape.Body)] = shape;
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

            good.Add(await InsertAsync(connection, "bo@example.com", "Order shipped", "Hello"));
            await transaction.CommitAsync();
        }

        problems.AddRange(reachedTheTable.Values.Where(s => s.TableRefusal is not null).Select(s => $"{s}: accepted by the table, expected {s.TableRefusal}"));
        Assert.Empty(problems);

        var messages = await ClaimAllAsync();
        Assert.Equal(good.Concat(reachedTheTable.Keys).Order(), messages.Keys.Order());
        Assert.All(good, id => Assert.Null(NotificationValidator.Validate(messages[id])));
        Assert.All(reachedTheTable, row => Assert.Contains(row.Value.Reason, NotificationValidator.Validate(messages[row.Key]), StringComparison.Ordinal));
    }

    private static Task<long> InsertAsync(NpgsqlConnection connection, string recipient, string subject, string body) =>
        connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body) VALUES (@recipient, @subject, @body) RETURNING id",
            new { recipient, subject, body });

    private static async Task<Dictionary<long, NotificationMessage>> ClaimAllAsync()
    {
        await using var dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);
        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        await using var claim = await new PostgresOutboxStore(dataSource, options).ClaimAsync([WorkerLane.Normal], 100, CancellationToken.None);
        return claim.Rows.ToDictionary(r => r.Id, r => r.ToMessage());
    }
}
