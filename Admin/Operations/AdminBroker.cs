using System.Net.Sockets;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Admin.Operations;

/// <summary>The admin's broker connection: one attempt, five seconds — an operator (or a console page) wants an answer, not a retry loop.</summary>
internal sealed class AdminBroker(RabbitMqOptions rabbit, string clientName = "notifications-admin")
{
    public RabbitMqOptions Options => rabbit;

    public async Task<IConnection> ConnectAsync(CancellationToken cancellationToken)
    {
        var factory = new ConnectionFactory
        {
            Uri = rabbit.Uri,
            ClientProvidedName = clientName,
            AutomaticRecoveryEnabled = false,
            RequestedConnectionTimeout = TimeSpan.FromSeconds(5),
            ContinuationTimeout = TimeSpan.FromSeconds(10),
        };
        try
        {
            return await factory.CreateConnectionAsync(rabbit.BrokerEndpoints(), cancellationToken);
        }
        catch (Exception ex) when (ex is BrokerUnreachableException or OperationInterruptedException or IOException or TimeoutException or SocketException)
        {
            throw new AdminException(
                $"RabbitMQ at {rabbit.Uri.Host}:{rabbit.Uri.Port} is unreachable: {AdminContext.Innermost(ex).Message} (set RabbitMq__Uri or --rabbitmq)",
                ExitCodes.Unavailable, ex);
        }
    }
}
