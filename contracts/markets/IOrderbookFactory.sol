// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IOrderbookFactory
/// @notice Types, events and errors of the order-book factory: the on-chain fee defaults of the committed lane's
/// ORDERBOOK markets.
interface IOrderbookFactory {
    /// @notice Taker-fee models of the order book (docs/fees.md); the API names them `notional-v1` and `shares-v2`.
    enum FeePolicyVersion {
        NotionalV1,
        SharesV2
    }

    /// @notice The fee defaults stamped into new order-book markets changed (existing markets keep theirs).
    event FeeDefaultsSet(
        FeePolicyVersion feePolicyVersion, uint16 routerTakerFeeBps, uint16 operatorBatchFeeBps, uint16 winningsExitFeeBps
    );

    /// @notice A fee default above the cap (`maxBps`); all three proposed values are given.
    error OrderbookFactoryFeeTooHigh(
        uint16 routerTakerFeeBps, uint16 operatorBatchFeeBps, uint16 winningsExitFeeBps, uint16 maxBps
    );
    /// @notice `feePolicyVersion` is not a FeePolicyVersion (0 notional-v1, 1 shares-v2).
    error OrderbookFactoryUnknownFeePolicy(uint8 feePolicyVersion);
    /// @notice A zero admin or ledger at deployment.
    error OrderbookFactoryZeroAddress();
}
