// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title OutcomeToken
/// @notice The one ERC-1155 shared by every on-chain market. Token id = (marketId << 8) | outcomeIndex; market ids
/// start at 1 and are allocated here when a registered factory registers a market. Only the market registered for a
/// market id mints or burns its tokens.
contract OutcomeToken is ERC1155, Ownable {
    /// @notice A factory was allowed (or disallowed) to register markets.
    event FactorySet(address indexed factory, bool allowed);
    /// @notice `factory` registered `market` under `marketId` with `outcomeCount` outcomes.
    event MarketRegistered(uint256 indexed marketId, address indexed market, address indexed factory, uint8 outcomeCount);

    /// @notice The caller is not an allowed factory.
    error OutcomeTokenUnauthorizedFactory(address caller);
    /// @notice The caller is not the market registered for `marketId`.
    error OutcomeTokenUnauthorizedMarket(address caller, uint256 marketId);
    /// @notice The outcome index is not one of the market's outcomes.
    error OutcomeTokenInvalidOutcome(uint256 marketId, uint256 outcomeIndex);
    /// @notice An outcome count outside 2..255.
    error OutcomeTokenInvalidOutcomeCount(uint8 outcomeCount);

    mapping(address factory => bool allowed) private _factories;
    mapping(uint256 marketId => address market) private _markets;
    mapping(uint256 marketId => uint8 outcomeCount) private _outcomeCounts;
    uint256 private _lastMarketId;

    constructor(address initialOwner, string memory uri_) ERC1155(uri_) Ownable(initialOwner) {}

    /// @notice Allows or disallows `factory` to register markets. Only the owner.
    function setFactory(address factory, bool allowed) external onlyOwner {
        _factories[factory] = allowed;
        emit FactorySet(factory, allowed);
    }

    /// @notice Whether `factory` may register markets.
    function isFactory(address factory) external view returns (bool) {
        return _factories[factory];
    }

    /// @notice Allocates the next market id to `market`. Only allowed factories.
    function registerMarket(address market, uint8 outcomeCount) external returns (uint256 marketId) {
        if (!_factories[msg.sender]) revert OutcomeTokenUnauthorizedFactory(msg.sender);
        if (outcomeCount < 2) revert OutcomeTokenInvalidOutcomeCount(outcomeCount);
        marketId = ++_lastMarketId;
        _markets[marketId] = market;
        _outcomeCounts[marketId] = outcomeCount;
        emit MarketRegistered(marketId, market, msg.sender, outcomeCount);
    }

    /// @notice The market contract of `marketId` (zero when unknown).
    function marketOf(uint256 marketId) external view returns (address) {
        return _markets[marketId];
    }

    /// @notice The token id of `outcomeIndex` of `marketId`.
    function tokenId(uint256 marketId, uint256 outcomeIndex) public pure returns (uint256) {
        return (marketId << 8) | outcomeIndex;
    }

    /// @notice Mints outcome tokens. Only the market registered for `marketId`.
    function mint(address to, uint256 marketId, uint256 outcomeIndex, uint256 amount) external {
        _checkMarket(marketId, outcomeIndex);
        _mint(to, tokenId(marketId, outcomeIndex), amount, "");
    }

    /// @notice Burns outcome tokens of `from`. Only the market registered for `marketId`.
    function burn(address from, uint256 marketId, uint256 outcomeIndex, uint256 amount) external {
        _checkMarket(marketId, outcomeIndex);
        _burn(from, tokenId(marketId, outcomeIndex), amount);
    }

    function _checkMarket(uint256 marketId, uint256 outcomeIndex) private view {
        if (_markets[marketId] != msg.sender || msg.sender == address(0)) revert OutcomeTokenUnauthorizedMarket(msg.sender, marketId);
        if (outcomeIndex >= _outcomeCounts[marketId]) revert OutcomeTokenInvalidOutcome(marketId, outcomeIndex);
    }
}
