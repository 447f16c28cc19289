using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.Client.EntityFrameworkCore;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// Every shape of <see cref="BadInputCorpus"/> through every enqueue path of the client, on the real PostgreSQL as the app's
/// login: each is refused before the insert with an <see cref="ArgumentException"/> naming the field and the consumer's reason,
/// and the outbox stays empty (issue 28, item 3: what the consumer refuses at send is refused at enqueue).
/// </summary>
[Collection("services")]
public sealed class EnqueueValidationTests
{
    [Fact]
    public async Task EnqueueAsync_AdoNetTransaction_EveryBadShapeRefusedNamingTheField()
    {
        var db = await TestDatabase.CleanAsync();

        var problems = await ProblemsAsync(async notification =>
        {
            await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
            await using var transaction = await connection.BeginTransactionAsync();
            await NotificationOutbox.EnqueueAsync(transaction, notification, TestDatabase.Schema);
            await transaction.CommitAsync();
        });

        Assert.Empty(problems);
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    [Fact]
    public async Task EnqueueAsync_InjectedOutbox_EveryBadShapeRefusedNamingTheFieldInBothForms()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = new ServiceCollection()
            .AddNotificationsClient(o =>
            {
                o.UsePostgreSql(TestRoles.ConnectionString(DatabaseRole.App));
                o.Schema = TestDatabase.Schema;
            })
            .BuildServiceProvider();
        var outbox = services.GetRequiredService<INotificationOutbox>();

        var ownTransaction = await ProblemsAsync(notification => outbox.EnqueueAsync(notification));
        var appsTransaction = await ProblemsAsync(async notification =>
        {
            await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
            await using var transaction = await connection.BeginTransactionAsync();
            await outbox.EnqueueAsync(transaction, notification);
            await transaction.CommitAsync();
        });

        Assert.Empty(ownTransaction);
        Assert.Empty(appsTransaction);
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    [Fact]
    public async Task EnqueueNotificationAsyncAndAddNotification_EfCore_EveryBadShapeRefusedNamingTheField()
    {
        await ShopContext.CleanAsync();

        var explicitTransaction = await ProblemsAsync(async notification =>
        {
            await using var context = new ShopContext(ShopContext.Options());
            await using var transaction = await context.Database.BeginTransactionAsync();
            await context.EnqueueNotificationAsync(notification, TestDatabase.Schema);
            await transaction.CommitAsync();
        });
        var saveChanges = await ProblemsAsync(async notification =>
        {
            await using var context = new ShopContext(ShopContext.Options());
            context.AddNotification(notification);
            await context.SaveChangesAsync();
        });

        Assert.Empty(explicitTransaction);
        Assert.Empty(saveChanges);
        Assert.Empty(await ShopContext.OutboxAsync());
    }

    [Fact]
    public async Task EnqueueAsync_TemplatedWithABadRecipient_RefusedNamingTheRecipient()
    {
        var db = await TestDatabase.CleanAsync();
        var recipients = BadInputCorpus.Email.Where(s => s.Field == nameof(NewNotification.Recipient)).ToList();

        var problems = await ProblemsAsync(
            notification => TestDatabase.EnqueueAsync(NewNotification.FromTemplate(notification.Recipient, "order-confirmation", """{"order":"42"}""")),
            recipients);

        Assert.Empty(problems);
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    /// <summary>What went wrong for each shape <paramref name="enqueue"/> did not refuse as it should: accepted, or refused otherwise.</summary>
    private static async Task<List<string>> ProblemsAsync(Func<NewNotification, Task> enqueue, IReadOnlyList<BadShape>? shapes = null)
    {
        var problems = new List<string>();
        foreach (var shape in shapes ?? BadInputCorpus.Email)
        {
            try
            {
                await enqueue(shape.Notification);
                problems.Add($"{shape}: accepted");
            }
            catch (ArgumentException e) when (e.ParamName == shape.Field && e.Message.Contains(shape.Reason, StringComparison.Ordinal))
            {
                // Refused as the consumer would, naming the field.
            }
            catch (Exception e)
            {
                problems.Add($"{shape}: {e.GetType().Name} ({(e as ArgumentException)?.ParamName}) {e.Message}");
            }
        }

        return problems;
    }
}
