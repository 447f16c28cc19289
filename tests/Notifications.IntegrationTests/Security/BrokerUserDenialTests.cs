using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// Each role's broker user (<see cref="Shared.Messaging.BrokerPermissions"/>) tries what it must not do on the real broker,
/// which answers ACCESS_REFUSED (403) and closes the channel.
/// </summary>
[Collection("services")]
public sealed class BrokerUserDenialTests
{
    private const ushort AccessRefused = 403;

    public static TheoryData<string, string> Denials => new()
    {
        { "producer", "consume the work queue" },
        { "producer", "get from the urgent work queue" },
        { "producer", "purge the work queue" },
        { "producer", "declare a queue" },
        { "producer", "declare the exchange" },
        { "producer", "delete the work queue" },
        { "consumer", "publish to another exchange" },
        { "consumer", "declare a queue outside its names" },
        { "consumer", "delete a queue outside its names" },
        { "consumer", "get from the dead-letter queue" },
        { "consumer", "purge the dead-letter queue" },
        { "admin", "consume the work queue" },
        { "admin", "get from the work queue" },
        { "admin", "purge the work queue" },
        { "admin", "declare a queue" },
        { "admin", "delete the dead-letter queue" },
        { "admin", "publish to another exchange" },
        // The gateway: its own node queue on the live exchange, nothing of the work.
        { "gateway", "consume the work queue" },
        { "gateway", "get from the work queue" },
        { "gateway", "publish to the exchange" },
        { "gateway", "declare a queue" },
        { "gateway", "declare the exchange" },
        { "gateway", "bind a node queue to the exchange" },
        { "consumer", "bind a queue to the live exchange" },
    };

    [Theory]
    [MemberData(nameof(Denials))]
    public async Task RoleUser_OperationOutsideItsPermissions_AccessRefused(string role, string operation)
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var users = await BrokerRoleUsers.CreateAsync(broker);
        string outside = $"{broker.Options.Queue}.other";
        await broker.DeclareQueueAsync(outside);
        broker.Owns(outside);
        var options = broker.Options;
        Func<IChannel, Task> attempt = operation switch
        {
            "consume the work queue" => c => c.BasicConsumeAsync(options.Queue, autoAck: false, new AsyncEventingBasicConsumer(c)),
            "get from the urgent work queue" => c => c.BasicGetAsync(options.UrgentQueue, autoAck: false),
            "get from the work queue" => c => c.BasicGetAsync(options.Queue, autoAck: false),
            "purge the work queue" => c => c.QueuePurgeAsync(options.Queue),
            "declare a queue" => c => c.QueueDeclareAsync($"{options.Queue}.mine", durable: true, exclusive: false, autoDelete: false),
            "declare the exchange" => c => c.ExchangeDeclareAsync(options.Exchange, ExchangeType.Direct, durable: true),
            "delete the work queue" => c => c.QueueDeleteAsync(options.Queue),
            "delete the dead-letter queue" => c => c.QueueDeleteAsync(options.DeadLetterQueue),
            "publish to another exchange" => c => c.BasicPublishAsync("amq.direct", options.Queue, "x"u8.ToArray()).AsTask(),
            "publish to the exchange" => c => c.BasicPublishAsync(options.Exchange, options.Queue, "x"u8.ToArray()).AsTask(),
            "bind a node queue to the exchange" => async c =>
            {
                string node = options.LiveNodeQueuePrefix + "denied";
                await c.QueueDeclareAsync(node, durable: false, exclusive: true, autoDelete: true);
                await c.QueueBindAsync(node, options.Exchange, "ana");
            },
            "bind a queue to the live exchange" => async c =>
            {
                await Shared.Messaging.RabbitTopology.DeclareLiveExchangeAsync(c, options, CancellationToken.None);
                await c.QueueBindAsync(options.Queue, options.LiveExchange, "ana");
            },
            "declare a queue outside its names" => c => c.QueueDeclareAsync(outside, durable: true, exclusive: false, autoDelete: false),
            "delete a queue outside its names" => c => c.QueueDeleteAsync(outside),
            "get from the dead-letter queue" => c => c.BasicGetAsync(options.DeadLetterQueue, autoAck: false),
            "purge the dead-letter queue" => c => c.QueuePurgeAsync(options.DeadLetterQueue),
            _ => throw new ArgumentOutOfRangeException(nameof(operation), operation, "no such operation"),
        };
        var uri = role switch { "producer" => users.Producer, "consumer" => users.Consumer, "gateway" => users.Gateway, _ => users.Admin };

        ushort? code = await RefusalCodeAsync(uri, attempt);

        Assert.True(code == AccessRefused, $"the {role} user may not {operation}: expected ACCESS_REFUSED (403), the broker answered {code?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "nothing (allowed)"}");
        Assert.Equal(0u, await broker.CountAsync(options.DeadLetterQueue) + await broker.ConsumersAsync(options.Queue));
    }

    [Theory]
    [InlineData(RabbitQueueType.Classic)]
    [InlineData(RabbitQueueType.Quorum)]   // the dead-letter arguments of quorum work queues need write on the exchange, read on the queue
    public async Task RoleUsers_WhatTheirCodePathsNeed_Allowed(RabbitQueueType queueType)
    {
        await using var broker = await TestBroker.CreateAsync(queueType: queueType, declare: false);
        await using var users = await BrokerRoleUsers.CreateAsync(broker);
        var options = broker.Options;

        // The consumer declares the topology (nothing is declared yet); the producer checks it passively and publishes with a
        // confirm; the consumer takes the message and dead-letters it through the exchange; the admin reads, requeues and
        // purges the dead queue.
        Assert.Null(await RefusalCodeAsync(users.Consumer, c => Shared.Messaging.RabbitTopology.DeclareAsync(c, options, CancellationToken.None)));
        Assert.Null(await RefusalCodeAsync(users.Producer, async c =>
        {
            await Shared.Messaging.RabbitTopology.CheckDeclaredAsync(c, options, CancellationToken.None);
            await c.BasicPublishAsync(options.Exchange, options.Queue, mandatory: true, new BasicProperties(), "one"u8.ToArray());
        }));
        Assert.Null(await RefusalCodeAsync(users.Consumer, async c =>
        {
            var message = await Eventually.WaitAsync(() => c.BasicGetAsync(options.Queue, autoAck: false), m => m is not null, TimeSpan.FromSeconds(10), "the published message");
            await c.BasicPublishAsync(options.Exchange, options.DeadLetterQueue, mandatory: true, new BasicProperties(), message!.Body);
            await c.BasicAckAsync(message.DeliveryTag, multiple: false);
        }));
        Assert.Null(await RefusalCodeAsync(users.Admin, async c =>
        {
            var message = await Eventually.WaitAsync(() => c.BasicGetAsync(options.DeadLetterQueue, autoAck: false), m => m is not null, TimeSpan.FromSeconds(10), "the dead letter");
            await c.BasicPublishAsync(options.Exchange, options.Queue, mandatory: true, new BasicProperties(), message!.Body);
            await c.BasicAckAsync(message.DeliveryTag, multiple: false);
        }));
        Assert.Equal(1u, await broker.CountAsync(options.Queue));
        Assert.Null(await RefusalCodeAsync(users.Admin, c => c.QueuePurgeAsync(options.DeadLetterQueue)));
    }

    // Runs the operation on a fresh channel of a connection as that user (publishes confirmed); the reply code the broker
    // closed the channel with, or null when it allowed the operation.
    private static async Task<ushort?> RefusalCodeAsync(Uri user, Func<IChannel, Task> operation)
    {
        await using var connection = await new ConnectionFactory { Uri = user }.CreateConnectionAsync();
        await using var channel = await connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true));
        try
        {
            await operation(channel);
        }
        catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException or PublishException)
        {
            // The channel's close reason says why.
        }

        if (channel.IsOpen)
        {
            // A refused publish closes the channel asynchronously: a round trip on it settles whether it was refused.
            try
            {
                await channel.QueueDeclarePassiveAsync($"none.such.{Guid.NewGuid():N}", CancellationToken.None);
            }
            catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException)
            {
                return channel.CloseReason?.ReplyCode is 404 ? null : channel.CloseReason?.ReplyCode;
            }
        }

        return channel.CloseReason?.ReplyCode;
    }
}
